import Foundation
import FleetCore
import FleetWarehouse

/// The first rows of a file as a profile would store them (`fleetkit profile test`): each row's
/// records with their stored values (SI units, UTC, minor currency units, natural keys), or the
/// reject it would be. Nothing is written; rows are read exactly as an import reads them
/// (`ProfileRecord`), so what the preview shows is what the warehouse would hold. For a target a
/// native format reads (`ProfileNativeRows`), a row is shown as that format's columns, reshaped.
public enum ProfilePreview {
    /// One row: where it is, and either its stored fields or the reject's reason and message.
    public struct Row: Sendable {
        public var location: String
        public var table: String
        public var fields: [(name: String, value: String)]
        public var reject: String?
    }

    /// Up to `limit` data rows of `path` read with `profile`, in the fleet `zone` and base `currency`.
    public static func rows(_ path: String, profile: Profile, zone: FleetZone, currency: String, sheet: String? = nil, limit: Int = 10) throws -> [Row] {
        let opened = try OpenedFile(path: path)
        var head = try opened.head()
        var input = InputFile(url: URL(fileURLWithPath: path), head: head, zone: zone, currency: currency)
        input.source = opened.descriptorURL
        if let kind = SpreadsheetFile.kind(of: head) {
            guard kind == SpreadsheetFile.xlsx else { throw SpreadsheetFile(path: path, kind: kind) }
            input.sheet = WorkbookSheet(name: sheet)
            head = try XLSXRecords.head(url: opened.descriptorURL, sheet: sheet)
            input.head = head
        }
        let importer = ProfileImporter(profile: profile)
        var reader = try RecordSources.open(input)
        for _ in 0..<profile.preamble where try reader.next() == nil { throw FleetError.emptyFile(file: path) }
        guard let first = try reader.next() else { throw FleetError.emptyFile(file: path) }
        try importer.check(input, header: first.fields)
        let native = profile.target.readsNatively
        let constants = profile.constants
        let header = CSVHeader(first.fields + constants.map(\.header),
                               aliases: native ? ProfileNativeRows.columns(profile) : Dictionary(uniqueKeysWithValues: profile.columns.map { ($0.header, [String]()) }))
        let convention = DecimalNumber.Convention.forDelimiter(reader.delimiter)
        let values = ProfileValues(profile: profile, zone: zone, workbook: input.sheet != nil)
        let rewrite = ProfileNativeRows.rewriter(profile, header: header, values: values)
        let seen = KeyLedger(), choices = ChoiceMemo()
        var out: [Row] = []
        while out.count < limit, var record = try reader.next() {
            if record.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            let location = reader.location(line: record.line, column: nil)
            if profile.skips(record.fields) {
                out.append(Row(location: location, table: profile.target.table, fields: [], reject: "skipped: a row the profile's skip rows name"))
                continue
            }
            if !constants.isEmpty { record.fields += Array(repeating: "", count: max(0, first.fields.count - record.fields.count)) + constants.map(\.value) }
            do {
                if native {
                    // The row as the native format will read it: each field's cell, reshaped.
                    try rewrite(&record)
                    let fields = profile.columns.compactMap { c -> (name: String, value: String)? in
                        let name = ProfileNativeRows.column(for: c).name
                        return header.value(name, in: record).map { (name, $0) }
                    }
                    out.append(Row(location: location, table: profile.target.table, fields: fields, reject: nil))
                    continue
                }
                var row = FleetImport.Row(record: record, header: header, convention: convention, zone: zone, currency: currency, seenKeys: seen, choices: choices)
                let r = try ProfileRecord.of(&row, values: values, fileAsset: nil, base: currency)
                out.append(Row(location: location, table: profile.target.table, fields: describe(r), reject: nil))
            } catch let e as RowError {
                out.append(Row(location: location, table: profile.target.table, fields: [], reject: "\(e.reason.rawValue): \(FuelCardImporter.maskCardNumbers(e.message))"))
            }
        }
        return out
    }

    /// The stored values of a row's records, named as the warehouse's columns are.
    static func describe(_ record: ProfileRecord) -> [(name: String, value: String)] {
        func asset(_ a: AssetRef?) -> String { a.map { $0.unitNumber ?? $0.vin ?? $0.identifiers.first.map { "plate " + $0.value } ?? "?" } ?? "(unassigned)" }
        func money(_ minor: Int64?, _ c: String) -> String { minor.map { "\($0) (\(Money(minor: $0, currency: c)))" } ?? "" }
        func number(_ d: Double?) -> String { d.map { String(format: "%.6f", $0).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression) } ?? "" }
        switch record {
        case let .fuel(f, a):
            return [("asset", asset(a)), ("at", Timestamp.iso(f.at)), ("source_key", f.sourceKey), ("volume_ml", number(f.volumeMl)),
                    ("unit_price_minor_per_l", number(f.unitPriceMinorPerL)), ("total_minor", money(f.totalMinor, f.currency)),
                    ("currency", f.currency + (f.currencyAssumed ? " (assumed)" : "")), ("odometer_m", number(f.odometerM)),
                    ("card_last4", f.cardLast4 ?? ""), ("needs_review", f.needsReview ? "1" : "0")].filter { !$0.1.isEmpty }
        case let .expense(e, a):
            return [("asset", asset(a)), ("at", Timestamp.iso(e.at)), ("source_key", e.sourceKey), ("category", e.category),
                    ("amount_minor", money(e.amountMinor, e.currency)), ("currency", e.currency + (e.currencyAssumed ? " (assumed)" : "")),
                    ("vendor", e.vendor ?? "")].filter { !$0.1.isEmpty }
        case let .meters(readings, a):
            return [("asset", asset(a)), ("at", Timestamp.iso(readings[0].at))]
                + readings.map { ($0.meter, number($0.value) + " \(unit(of: $0.meter)) (\($0.rawValue ?? "") \($0.rawUnit ?? ""))") }
        case let .totals(totals, a):
            let units = Dictionary(uniqueKeysWithValues: VendorTotal.measures.map { ($0.name, $0.unit) })
            let t = totals[0]
            return [("asset", asset(a)), ("source", t.source), ("start_at", Timestamp.iso(t.startAt)), ("end_at", Timestamp.iso(t.endAt)),
                    ("jurisdiction", t.jurisdiction), ("fuel_type", t.fuelType), ("state_at", t.stateAt.map(Timestamp.iso) ?? "")].filter { !$0.1.isEmpty }
                + totals.map { ($0.measure, number($0.value) + " \(units[$0.measure] ?? "") (\($0.rawValue ?? "") \($0.rawUnit ?? ""))") }
        case let .position(p, a):
            return [("asset", asset(a)), ("at", Timestamp.iso(p.at)), ("lat", number(p.lat)), ("lon", number(p.lon)),
                    ("speed_mps", number(p.speedMps)), ("heading_deg", number(p.headingDeg)), ("alt_m", number(p.altM))].filter { !$0.1.isEmpty }
        }
    }

    static func unit(of meter: String) -> String {
        switch meter { case "odometer": return "m"; case "engine_hours": return "s"; case "fuel_used": return "mL"; default: return "" }
    }
}
