import GRDB
import FleetCore
import FleetWarehouse

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
    public static func dataThrough(_ db: Database, _ request: ReportRequest) throws -> CivilDate? { try dataThrough(SQLiteReader(db), request) }

    public static func dataThrough(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> CivilDate? {
        var last: CivilDate? = try reader.value("SELECT MAX(day) FROM asset_day", as: String.self).flatMap { CivilDate($0) }
        for (table, column) in [("expense", "at"), ("fuel_purchase", "at"), ("maintenance_record", "performed_at"), ("dvir", "signed_at")] {
            if let ms = try reader.value("SELECT MAX(\(column)) FROM \(table)", as: Int64.self) {
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
    static func commonReasons(_ db: any WarehouseReader, _ request: ReportRequest, dataThrough: CivilDate?) throws -> [String] {
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
    public static func unknownAssets(_ db: Database, _ request: ReportRequest) throws -> [String] { try unknownAssets(SQLiteReader(db), request) }

    public static func unknownAssets(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> [String] {
        guard let wanted = request.assets, !wanted.isEmpty else { return [] }
        let known = Set(try reader.column("SELECT unit_number FROM asset WHERE unit_number IS NOT NULL", as: String.self))
        return wanted.filter { !known.contains($0) }
    }

    /// The reasons a period starts before data the report needs, and the headlines that are
    /// unknown for it. A kind whose first day is within `quietDays` of the period's start covers
    /// it (the first days of a month can be quiet, as its last can); a kind the warehouse holds
    /// none of is not judged here (the report's own data quality says it is empty).
    static func startReasons(_ db: any WarehouseReader, _ request: ReportRequest, needs: [ReportDataNeed]) throws -> (reasons: [String], unknown: Set<String>?) {
        var reasons: [String] = []
        var unknown: Set<String>? = []
        for need in needs {
            guard let first = try need.kind.firstDay(db, request),
                  first.daysSinceEpoch - request.period.from.daysSinceEpoch > quietDays else { continue }
            if first > request.period.to {
                reasons.append("no \(need.kind.label) in \(request.period.label): the warehouse's \(need.kind.label) start on \(first); the figures that rest on them are left out")
            } else {
                reasons.append("no \(need.kind.label) before \(first), after the period's first day \(request.period.from): import the earlier files, or report a period that starts on \(first) or later; the figures that rest on them are left out")
            }
            if let names = need.headlines { unknown = unknown.map { $0.union(names) } } else { unknown = nil }
        }
        return (reasons, unknown)
    }

    /// Stamps `output` with the data cut-off and the shared reasons, before any it gave itself.
    /// The data the report needs (`Report.needs`, found by the report's name) is checked from the
    /// period's start; headlines resting on data the period starts before are removed.
    public static func apply(_ output: inout ReportOutput, _ db: Database, _ request: ReportRequest) throws {
        try apply(&output, SQLiteReader(db), request)
    }

    public static func apply(_ output: inout ReportOutput, _ db: any WarehouseReader, _ request: ReportRequest) throws {
        let through = try dataThrough(db, request)
        output.metadata.dataThrough = through
        let needs = ReportRegistry.named(output.metadata.report)?.needs ?? []
        let start = try startReasons(db, request, needs: needs)
        if !start.reasons.isEmpty {
            output.metadata.headlines.removeAll { h in start.unknown.map { $0.contains(h.name) } ?? true }
        }
        let common = try commonReasons(db, request, dataThrough: through) + start.reasons
        output.metadata.partial = common + output.metadata.partial.filter { !common.contains($0) }
    }
}
