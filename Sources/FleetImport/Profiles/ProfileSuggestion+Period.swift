import Foundation
import FleetCore

/// The choice between `meter_readings` and `period_totals`, which share most header names
/// (`Engine Hours`, `Fuel Used (gal)`) and so cannot be told apart by counting names. A file is
/// period totals when both hold:
/// - **its time is a period**: `period_start` and `period_end` columns, or a date column
///   (`Date`, `Day`, `Period`, `Report Date`) whose values seen are days without a clock time, with
///   no vehicle twice on one day (jurisdiction and fuel type aside) — one row per vehicle and period;
/// - **a measure is a sum over the period**: a distance that is no odometer (`Distance (mi)`,
///   `Miles Driven`), idle hours, or fuel purchased. A meter reads a running total at an instant;
///   these figures exist only for a period.
/// Otherwise a file of engine hours and fuel used stays meter readings (a reading's file is a
/// time and meters, `Reading Date 06:00`, `Odometer (km)`).
extension ProfileSuggestion {
    /// Header spellings of `period_totals` fields for this rule: wider than `names`, as they
    /// are only used once the period test has passed.
    static let periodNames: [String: [String]] = [
        "date": ["date", "day", "period", "report_date", "period_date", "activity_date"],
        "period_start": ["period_start", "start_date", "from_date", "period_from", "start"],
        "period_end": ["period_end", "end_date", "to_date", "period_to", "end"],
        "distance": ["distance", "total_distance", "total_miles", "distance_driven", "miles_driven", "km_driven",
                     "distance_traveled", "distance_travelled", "miles", "kilometres", "kilometers"],
        "idle_hours": ["idle_hours", "idle_time", "idle_duration", "idling_time", "idle"],
        "fuel_purchased": ["fuel_purchased", "tax_paid_gallons", "tax_paid_fuel"],
        "engine_hours": ["engine_hours", "engine_run_time", "engine_time", "run_time", "hours", "engine_hrs", "operating_hours"],
        "fuel_used": ["fuel_used", "fuel_consumed", "total_fuel_used", "fuel_consumption", "fuel"],
    ]

    /// The `period_totals` fields of `header` when the file is period totals by the rule above, else nil.
    static func periodTotalsFields(header: [String], samples: [[String]]) -> [Int: String]? {
        var fields: [Int: String] = [:]
        let own = names[.periodTotals]!
        for (i, h) in header.enumerated() {
            let n = CSVHeader.normalise(stripUnit(h)), full = CSVHeader.normalise(h)
            let hit: (String, [String]) -> Bool = { _, spellings in spellings.contains { CSVHeader.normalise($0) == n || CSVHeader.normalise($0) == full } }
            if let f = (periodNames.first(where: hit) ?? own.first(where: hit))?.key, !fields.values.contains(f) { fields[i] = f }
        }
        func values(_ i: Int) -> [String] {
            samples.compactMap { i < $0.count ? $0[i].trimmingCharacters(in: .whitespaces) : nil }.filter { !$0.isEmpty }
        }
        func days(_ i: Int) -> Bool {
            let v = values(i)
            return !v.isEmpty && v.allSatisfy { $0.range(of: #"^(\d{4}-\d{2}-\d{2}|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{4})$"#, options: .regularExpression) != nil }
        }
        // The period: both ends as days, or one day column.
        let start = fields.first { $0.value == "period_start" }?.key, end = fields.first { $0.value == "period_end" }?.key
        if let s = start, let e = end, days(s), days(e) {
            fields = fields.filter { $0.value != "date" }
        } else if let d = fields.first(where: { $0.value == "date" })?.key, days(d) {
            fields = fields.filter { $0.value != "period_start" && $0.value != "period_end" }
        } else {
            return nil
        }
        // A measure only a period has.
        guard fields.values.contains(where: { ["distance", "idle_hours", "fuel_purchased"].contains($0) }),
              !header.contains(where: { CSVHeader.normalise(stripUnit($0)).contains("odometer") }) else { return nil }
        // One row per vehicle and period (and jurisdiction and fuel type, where given: an IFTA
        // summary has a row per state).
        let period = fields.filter { ["date", "period_start", "period_end", "jurisdiction", "fuel_type"].contains($0.value) }.keys.sorted()
        if let unit = fields.first(where: { $0.value == "unit_number" || $0.value == "vin" })?.key {
            var seen = Set<[String]>()
            for row in samples {
                let key = ([unit] + period).map { $0 < row.count ? row[$0].trimmingCharacters(in: .whitespaces) : "" }
                if key.allSatisfy(\.isEmpty) { continue }
                guard seen.insert(key).inserted else { return nil }
            }
        }
        return fields
    }
}
