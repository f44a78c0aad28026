import Foundation
import FleetCore
import FleetWarehouse

/// One row of a `period_totals` profile as `vendor_total` records (docs/FORMATS.md, "Mapping
/// profiles"): one record per filled measure, in SI (metres, seconds, millilitres), over the
/// row's period of local days in the profile's zone (else the warehouse's), `[start, end)`.
enum ProfilePeriodTotals {
    /// The records of `row`, for `asset`. `profileName` is the source when the profile gives none.
    static func records(_ row: inout Row, _ v: ProfileValues, asset: AssetRef) throws -> [VendorTotal] {
        let p = v.profile
        let (first, last) = try days(row, v)
        let start = v.zone.start(of: first), end = v.zone.start(of: last.adding(days: 1))
        let source = v.text(row, "source") ?? p.name
        let jurisdiction = v.text(row, "jurisdiction").map { $0.uppercased() } ?? ""
        let fuelType = v.text(row, "fuel_type").map { $0.lowercased() } ?? ""
        var stateAt: Int64? = nil
        if let c = p.column(for: "reported_at"), let t = row.text(c.header) { stateAt = try v.instant(text: t, column: c.header) }
        let length = Double(end - start) / 1000
        var out: [VendorTotal] = []
        for (measure, _) in VendorTotal.measures {
            guard let m = try v.measure(row, measure, min: 0) else { continue }
            // A duration longer than its period cannot be: the unit or the period is wrong.
            if p.column(for: measure)?.kind == .duration, m.si > length {
                throw RowError(.outOfRange, "'\(p.column(for: measure)!.header)' is \(m.raw) \(m.unit.text), longer than the period \(first)…\(last) (\(Int(length / 3600)) h); correct the unit or the period")
            }
            out.append(VendorTotal(assetID: 0, source: source, startAt: start, endAt: end, measure: measure, jurisdiction: jurisdiction, fuelType: fuelType,
                                   value: m.si, rawValue: m.raw.description, rawUnit: m.unit.text, stateAt: stateAt, sourceFileID: 0))
        }
        guard !out.isEmpty else {
            let names = p.columns.filter { ProfileTarget.periodMeasures[$0.field] != nil }.map { "'\($0.header)'" }.joined(separator: ", ")
            throw RowError(.missingField, "\(names) \(names.contains(",") ? "are" : "is") empty; a totals row needs a figure")
        }
        let who = asset.unitNumber ?? asset.vin ?? asset.identifiers.first.map { "plate:" + $0.value } ?? ""
        try row.unique("total|\(who)|\(source)|\(start)|\(end)|\(jurisdiction)|\(fuelType)", "totals of the same vehicle, period, jurisdiction and fuel type")
        return out
    }

    /// The row's first and last local day, both included.
    static func days(_ row: Row, _ v: ProfileValues) throws -> (CivilDate, CivilDate) {
        let p = v.profile
        if let c = p.column(for: "date") {
            guard let t = row.text(c.header) else { throw RowError(.missingField, "'\(c.header)' is empty; every row needs the day its totals are for") }
            let d = try v.day(text: t, column: c.header)
            return (d, d)
        }
        let a = p.column(for: "period_start")!, b = p.column(for: "period_end")!
        guard let ta = row.text(a.header), let tb = row.text(b.header) else {
            throw RowError(.missingField, "'\(a.header)' or '\(b.header)' is empty; every row needs its period's first and last day")
        }
        let from = try v.day(text: ta, column: a.header), to = try v.day(text: tb, column: b.header)
        guard from <= to else {
            throw RowError(.badValue, "'\(b.header)' is \(to), before '\(a.header)' \(from); the period's last day is on or after its first (both are included)")
        }
        guard to.daysSinceEpoch - from.daysSinceEpoch < 366 else {
            throw RowError(.outOfRange, "the period \(from)…\(to) is longer than a year; totals are kept per day, month or quarter")
        }
        return (from, to)
    }
}
