import GRDB
import FleetCore

/// Whether a report's figures cover everything they claim to, and if not, why.
///
/// A total that silently leaves something out is the one mistake a finance reader cannot catch:
/// `£0.00` for a month whose 262 cost rows had no GBP rate looks like a quiet month. So every
/// report carries its reasons for being partial in its metadata (`ReportMetadata.partial`),
/// each format shows them in its header, and the CLI exits 1 unless `--allow-partial`
/// (docs/METRICS.md, "Partial reports"). The reasons shared by every report are here: a period
/// that runs past the data or past today, and asset filters naming no known unit. Reports add
/// their own (the cost report: rows without an exchange rate).
public enum ReportCompleteness {
    /// The last local day the warehouse holds data for, bounded by `request.asOf`: the days of a
    /// period after it have no data yet, whatever the reason (not imported, or in the future).
    /// Nil when the warehouse holds no dated data at all.
    ///
    /// Telematics are read from the daily rollup (`asset_day`, small and keyed by day) rather than
    /// the raw positions; costs, maintenance and inspections from their own times.
    public static func dataThrough(_ db: Database, _ request: ReportRequest) throws -> CivilDate? {
        var last: CivilDate? = try String.fetchOne(db, sql: "SELECT MAX(day) FROM asset_day").flatMap { CivilDate($0) }
        for (table, column) in [("expense", "at"), ("fuel_purchase", "at"), ("maintenance_record", "performed_at"), ("dvir", "signed_at")] {
            if let ms = try Int64.fetchOne(db, sql: "SELECT MAX(\(column)) FROM \(table)") {
                let day = request.zone.day(of: ms)
                if last.map({ day > $0 }) ?? true { last = day }
            }
        }
        return last.map { min($0, request.asOf) }
    }

    /// Days at the end of a period with no data that are taken as days the fleet stood still
    /// (a weekend, a holiday) rather than data not imported yet. Without it a month ending on a
    /// Sunday would be "partial" for every fleet that rests on Sundays; past it, the data is
    /// taken to end where it ends. docs/METRICS.md, "Partial reports".
    public static let quietDays = 7

    /// The last day of the period a report counts as covered: the period's end (or today, if
    /// sooner) when the data reaches within `quietDays` of it, else the day the data ends.
    /// Utilization counts available days up to here. Nil when there is no data at all.
    public static func coveredThrough(_ request: ReportRequest, dataThrough: CivilDate?) -> CivilDate? {
        guard let through = dataThrough else { return nil }
        let end = min(request.period.to, request.asOf)
        return end.daysSinceEpoch - through.daysSinceEpoch <= quietDays ? end : through
    }

    /// The reasons shared by every report over `request`, in words a reader can act on.
    static func commonReasons(_ db: Database, _ request: ReportRequest, dataThrough: CivilDate?) throws -> [String] {
        var reasons: [String] = []
        let period = request.period
        if period.to > request.asOf {
            reasons.append("the period \(period.label) ends on \(period.to), after today (\(request.asOf)): its later days have no data yet")
        }
        if let through = dataThrough {
            if period.from > through {
                reasons.append("the warehouse has no data in \(period.label): its data ends on \(through)")
            } else if let covered = coveredThrough(request, dataThrough: through), covered < min(period.to, request.asOf) {
                reasons.append("the warehouse's data ends on \(through), before the period's last day \(period.to): import the later files, or report a period that ends by \(through)")
            }
        } else {
            reasons.append("the warehouse holds no dated data yet: import files first")
        }
        let unknown = try unknownAssets(db, request)
        if !unknown.isEmpty {
            reasons.append("no asset has the unit number \(unknown.map { "'\($0)'" }.joined(separator: ", ")): the figures cover only the units that exist")
        }
        return reasons
    }

    /// The units in `request.assets` that no asset has.
    public static func unknownAssets(_ db: Database, _ request: ReportRequest) throws -> [String] {
        guard let wanted = request.assets, !wanted.isEmpty else { return [] }
        let known = Set(try String.fetchAll(db, sql: "SELECT unit_number FROM asset WHERE unit_number IS NOT NULL"))
        return wanted.filter { !known.contains($0) }
    }

    /// Stamps `output` with the data cut-off and the shared reasons, before any it gave itself.
    public static func apply(_ output: inout ReportOutput, _ db: Database, _ request: ReportRequest) throws {
        let through = try dataThrough(db, request)
        output.metadata.dataThrough = through
        let common = try commonReasons(db, request, dataThrough: through)
        output.metadata.partial = common + output.metadata.partial.filter { !common.contains($0) }
    }
}
