import Foundation
import FleetCore

/// A first profile for a file (`fleetkit profile suggest`): from the header and the first rows,
/// the likely target, each column's field (the aliases the built-in formats accept), units named
/// in the header text (`Fuel Used (gal)`, `Distance km`), the date pattern the values follow,
/// and the decimal mark. Every guess is marked `# GUESS:` in the YAML with why, so the user
/// checks those lines and no others; a column that fits no field is left out, commented.
public enum ProfileSuggestion {
    public struct Result: Sendable {
        /// The profile as YAML, guesses marked.
        public var yaml: String
        /// How many lines carry a guess.
        public var guesses: Int
    }

    /// Header spellings per field of each target: the built-in formats' aliases where a format
    /// reads that record, else a short list.
    static let names: [ProfileTarget: [String: [String]]] = [
        .fuelPurchases: [
            "transaction_id": ["transaction_id"] + FuelCardImporter.columns["transaction_id"]!,
            "datetime": FuelCardImporter.columns["transaction_time"]!.filter { $0.contains("date") || $0.contains("stamp") },
            "date": ["transaction_date"] + FuelCardImporter.columns["transaction_date"]!,
            "time": ["transaction_time", "time", "trans_time", "txn_time", "purchase_time"],
            "card_number": ["card_number"] + FuelCardImporter.columns["card_number"]!,
            "unit_number": ["unit_number"] + FuelCardImporter.columns["unit_number"]!,
            "vin": ["vin"] + FuelCardImporter.columns["vin"]!,
            "merchant": ["merchant"] + FuelCardImporter.columns["merchant"]!,
            "merchant_city": ["merchant_city"] + FuelCardImporter.columns["merchant_city"]!,
            "merchant_state": ["merchant_state"] + FuelCardImporter.columns["merchant_state"]!,
            "fuel_grade": ["fuel_grade"] + FuelCardImporter.columns["fuel_grade"]!,
            "volume": ["gallons", "litres", "liters", "volume", "quantity", "qty", "fuel_volume"] + FuelCardImporter.columns["gallons"]! + FuelCardImporter.columns["litres"]!,
            "unit_price": ["unit_price", "price_per_gallon", "price_per_litre", "ppg", "ppl", "price"],
            "total": ["total"] + FuelCardImporter.columns["total"]! + ["cost"],
            "currency": ["currency"] + FuelCardImporter.columns["currency"]!,
            "odometer": ["odometer"] + FuelCardImporter.columns["odometer"]! + FuelCardImporter.columns["odometer_km"]! + FuelCardImporter.columns["odometer_mi"]!,
        ],
        .expenses: [
            "expense_id": ["expense_id"] + ExpensesImporter.columns["expense_id"]!,
            "invoice_number": ["invoice_number"] + ExpensesImporter.columns["invoice_number"]!,
            "date": ["date"] + ExpensesImporter.columns["date"]!,
            "category": ["category"] + ExpensesImporter.columns["category"]!,
            "amount": ["amount"] + ExpensesImporter.columns["amount"]!,
            "currency": ["currency"] + ExpensesImporter.columns["currency"]!,
            "vendor": ["vendor"] + ExpensesImporter.columns["vendor"]!,
            "description": ["description"] + ExpensesImporter.columns["description"]!,
            "unit_number": ["unit_number"] + ExpensesImporter.columns["unit_number"]!,
            "vin": ["vin"] + ExpensesImporter.columns["vin"]!,
        ],
        .meterReadings: [
            "datetime": ["time", "timestamp", "date_time", "datetime", "reading_date", "reading_time", "date"],
            "unit_number": ["unit_number", "unit", "vehicle", "machine", "asset", "asset_number", "vehicle_number", "equipment"],
            "vin": ["vin", "pin", "serial_number"],
            "odometer": ["odometer", "odo", "distance", "mileage", "odometer_km", "odometer_mi", "odometer_miles"],
            "engine_hours": ["engine_hours", "hours", "hour_meter", "engine_hrs", "operating_hours", "smh"],
            "fuel_used": ["fuel_used", "fuel_consumed", "total_fuel_used", "fuel_used_gal", "fuel_used_l"],
        ],
        .positions: [
            "datetime": ["time", "timestamp", "date_time", "datetime", "fix_time", "gps_time", "device_time", "time_utc"],
            "unit_number": ["unit_number", "unit", "vehicle", "device", "asset", "vehicle_name", "device_name"],
            "vin": ["vin"],
            "latitude": ["latitude", "lat"],
            "longitude": ["longitude", "lon", "lng", "long"],
            "speed": ["speed", "speed_kmh", "speed_mph", "speed_km_h", "gps_speed"],
            "heading": ["heading", "course", "bearing", "direction"],
            "altitude": ["altitude", "alt", "elevation", "altitude_m", "alt_ft"],
        ],
        // Only unambiguous names here; a file of both kinds of names is settled by `periodTotalsFields`.
        .periodTotals: [
            "date": ["day", "report_date"],
            "period_start": ["period_start", "start_date", "from_date"],
            "period_end": ["period_end", "end_date", "to_date"],
            "unit_number": ["unit_number", "unit", "vehicle", "asset", "vehicle_name"],
            "vin": ["vin"],
            "jurisdiction": ["jurisdiction"],
            "fuel_type": ["fuel_type"],
            "distance": ["total_distance", "total_miles", "distance_driven"],
            "engine_hours": ["engine_hours", "engine_run_time"],
            "idle_hours": ["idle_hours", "idle_time"],
            "fuel_used": ["fuel_used", "fuel_consumed"],
            "fuel_purchased": ["fuel_purchased", "tax_paid_gallons", "tax_paid_fuel"],
        ],
        .maintenanceRecords: native(.maintenanceRecords, MaintenanceImporter.columns),
        .assets: native(.assets, AssetsImporter.columns),
        .drivers: native(.drivers, DriversImporter.columns),
        .dvirs: native(.dvirs, DVIRImporter.columns),
    ]

    /// A native format's spellings for the fields of a target it reads: each field's column and
    /// its aliases, and for a measured field those of its unit-named columns (`odometer_km`).
    static func native(_ target: ProfileTarget, _ columns: [String: [String]]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for field in ProfileNativeRows.fields(of: target).keys {
            let related = columns.keys.filter { $0.hasPrefix(field + "_") && ["km", "mi", "l", "gal"].contains(String($0.dropFirst(field.count + 1))) }
            out[field] = [field] + (columns[field] ?? []) + related.sorted().flatMap { [$0] + (columns[$0] ?? []) }
        }
        return out
    }

    /// Words in a header that name a unit, by the kind they fit (checked in order: `mph` before `m`).
    static let unitWords: [(word: String, unit: String, kind: ProfileTarget.Kind)] = [
        ("mph", "mph", .speed), ("kmh", "km/h", .speed), ("km/h", "km/h", .speed), ("kph", "km/h", .speed), ("knots", "kn", .speed), ("m/s", "m/s", .speed),
        ("gallons", "gal", .volume), ("gal", "gal", .volume), ("litres", "L", .volume), ("liters", "L", .volume), ("ltr", "L", .volume), ("l", "L", .volume),
        ("miles", "mi", .distance), ("mi", "mi", .distance), ("km", "km", .distance), ("kilometres", "km", .distance), ("kilometers", "km", .distance),
        ("ft", "ft", .distance), ("m", "m", .distance),
        ("hours", "h", .duration), ("hrs", "h", .duration), ("h", "h", .duration), ("minutes", "min", .duration), ("min", "min", .duration), ("seconds", "s", .duration), ("s", "s", .duration),
    ]

    public static func suggest(_ path: String, name: String, sheet: String? = nil) throws -> Result {
        let opened = try OpenedFile(path: path)
        var input = InputFile(url: URL(fileURLWithPath: path), head: try opened.head())
        input.source = opened.descriptorURL
        if let kind = SpreadsheetFile.kind(of: input.head) {
            guard kind == SpreadsheetFile.xlsx else { throw SpreadsheetFile(path: path, kind: kind) }
            input.sheet = WorkbookSheet(name: sheet)
        }
        var reader = try RecordSources.open(input)
        guard let header = try reader.next()?.fields else { throw FleetError.emptyFile(file: path) }
        var samples: [[String]] = []
        while samples.count < 20, let r = try reader.next() { samples.append(r.fields) }
        func column(_ i: Int) -> [String] { samples.compactMap { i < $0.count ? $0[i].trimmingCharacters(in: .whitespaces) : nil }.filter { !$0.isEmpty } }

        // The target whose fields the most headers name.
        var best: (target: ProfileTarget, fields: [Int: String], score: Int)? = nil
        for target in ProfileTarget.allCases {
            var fields: [Int: String] = [:]
            for (i, h) in header.enumerated() {
                let n = CSVHeader.normalise(Self.stripUnit(h))
                let full = CSVHeader.normalise(h)
                if let f = names[target]!.first(where: { _, spellings in spellings.contains { CSVHeader.normalise($0) == n || CSVHeader.normalise($0) == full } })?.key,
                   !fields.values.contains(f) { fields[i] = f }
            }
            let required = target.required.allSatisfy { fields.values.contains($0) } ? 2 : 0
            let score = fields.count + required
            if best == nil || score > best!.score { best = (target, fields, score) }
        }
        var target = best!.target
        var fields = best!.fields
        var why = "\(best!.fields.count) of \(header.count) headers name \(target.rawValue) fields"
        // Readings or totals: by the rule of `periodTotalsFields`, not by counting names.
        if target == .meterReadings || target == .periodTotals, let period = periodTotalsFields(header: header, samples: samples) {
            (target, fields) = (.periodTotals, period)
            why = "one row per vehicle and period of days, with a measure summed over it (\(period.values.filter { ["distance", "idle_hours", "fuel_purchased"].contains($0) }.sorted().joined(separator: ", ")))"
        }
        if fields.values.contains("datetime"), fields.values.contains("date") {
            fields = fields.filter { $0.value != "datetime" }
        }
        // A date column whose values carry a clock, with no time column, is the date-time.
        if !fields.values.contains("time"), let (i, _) = fields.first(where: { $0.value == "date" }),
           column(i).contains(where: { $0.contains(":") }) {
            fields[i] = "datetime"
        }
        var lines: [String] = [], guesses = 0
        func guess(_ line: String, _ why: String) { lines.append("\(line)  # GUESS: \(why)"); guesses += 1 }
        lines.append("# Suggested by fleetkit profile suggest from \((path as NSString).lastPathComponent): check every line marked GUESS, then `fleetkit profile test`.")
        lines.append("name: \(name)")
        lines.append("version: 1")
        guess("target: \(target.rawValue)", why)
        lines.append("citation: \"\"  # where this layout is documented, or who exports it")

        // Decimal mark from the numbers seen.
        let numbers = fields.filter { [.money, .volume, .distance, .duration, .speed, .price].contains(target.fields[$0.value]) }.keys.flatMap(column)
        let commaDecimal = numbers.contains { $0.range(of: #"^-?[0-9.]*,[0-9]{1,2}$"#, options: .regularExpression) != nil && !$0.contains(".") || $0.range(of: #"\.[0-9]{3},[0-9]+$"#, options: .regularExpression) != nil }
        if commaDecimal { guess("decimal: \",\"", "numbers such as '\(numbers.first { $0.contains(",") } ?? "")' have a decimal comma"); lines.append("grouping: \".\"") }

        // The date pattern the time column's values follow.
        if let (i, field) = fields.first(where: { $0.value == "datetime" || $0.value == "date" }) ?? fields.first(where: { $0.value == "period_start" }), let pattern = datePattern(column(i), withTime: field == "datetime") {
            if pattern.ambiguous { guess("date_format: \"\(pattern.text)\"", "every day seen is 12 or less, so day and month cannot be told apart; check against a date you know") }
            else if pattern.text != "ISO" { guess("date_format: \"\(pattern.text)\"", "the values look like '\(column(i).first ?? "")'") }
        }
        lines.append("columns:")
        for (i, h) in header.enumerated() {
            let quoted = "\"" + h.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            guard let field = fields[i] else {
                if !h.trimmingCharacters(in: .whitespaces).isEmpty { lines.append("  # \(quoted): not mapped (no field of \(target.rawValue) by that name)") }
                continue
            }
            let kind = target.fields[field]!
            if ProfileUnit.required(kind) || kind == .price {
                let n = CSVHeader.normalise(h)
                let perVolume = kind != .price ? nil : n.contains("ppg") || n.contains("gal") ? "gal" : n.contains("ppl") || n.contains("lit") ? "L" : nil
                if let u = perVolume ?? unit(in: h, kind: kind == .price ? .volume : kind) {
                    guess("  \(quoted): {field: \(field), unit: \(u)}", "the unit from the header text")
                } else {
                    let fallback = [ProfileTarget.Kind.distance: "km", .volume: "L", .duration: "h", .speed: "km/h", .price: "L"][kind] ?? ""
                    guess("  \(quoted): {field: \(field), unit: \(fallback)}", "the header names no unit; \(fallback) is only a placeholder, check it")
                }
            } else {
                guess("  \(quoted): \(field)", "the header's name")
            }
        }
        return Result(yaml: lines.joined(separator: "\n") + "\n", guesses: guesses)
    }

    /// The header without a trailing unit: `Fuel Used (gal)` → `Fuel Used`.
    static func stripUnit(_ h: String) -> String {
        h.replacingOccurrences(of: #"\s*[\(\[][^\)\]]*[\)\]]\s*$"#, with: "", options: .regularExpression)
    }

    /// The unit a header names, in brackets or as its last word, when it fits `kind`.
    static func unit(in header: String, kind: ProfileTarget.Kind) -> String? {
        let lower = header.lowercased()
        var candidates: [String] = []
        if let r = lower.range(of: #"[\(\[]([^\)\]]+)[\)\]]"#, options: .regularExpression) { candidates.append(String(lower[r].dropFirst().dropLast())) }
        candidates += lower.split(whereSeparator: { " _-".contains($0) }).map(String.init).reversed()
        for c in candidates {
            if let w = unitWords.first(where: { $0.word == c.trimmingCharacters(in: .whitespaces) && $0.kind == kind }), ProfileUnit.parse(w.unit, kind: kind) != nil { return w.unit }
        }
        return nil
    }

    /// The pattern `values` follow: ISO 8601, or day, month and year in some order with an
    /// optional clock. `ambiguous` when no value tells the day from the month.
    static func datePattern(_ values: [String], withTime: Bool) -> (text: String, ambiguous: Bool)? {
        guard let first = values.first else { return nil }
        if first.range(of: #"^\d{4}-\d{2}-\d{2}"#, options: .regularExpression) != nil { return ("ISO", false) }
        guard let m = first.range(of: #"^(\d{1,2})([/.\-])(\d{1,2})[/.\-](\d{4})"#, options: .regularExpression) else { return nil }
        let sep = first[m].first { !$0.isNumber }!
        var firstOver12 = false, secondOver12 = false
        for v in values {
            let parts = v.prefix(10).split(whereSeparator: { "/.-".contains($0) })
            guard parts.count >= 2, let a = Int(parts[0]), let b = Int(parts[1]) else { continue }
            if a > 12 { firstOver12 = true }
            if b > 12 { secondOver12 = true }
        }
        let dayFirst = firstOver12 || (!secondOver12 && sep == ".")
        var text = dayFirst ? "DD\(sep)MM\(sep)YYYY" : "MM\(sep)DD\(sep)YYYY"
        let rest = first[m.upperBound...].trimmingCharacters(in: .whitespaces)
        if withTime, !rest.isEmpty {
            let twelve = rest.lowercased().hasSuffix("am") || rest.lowercased().hasSuffix("pm")
            let clock = rest.split(separator: " ").first.map(String.init) ?? ""
            let seconds = clock.split(separator: ":").count == 3
            text += " " + (twelve ? "h:mm" : "HH:mm") + (seconds ? ":ss" : "") + (twelve ? " a" : "")
        }
        return (text, !firstOver12 && !secondOver12 && sep != ".")
    }
}
