import Foundation
import GRDB
import FleetCore

/// Closed months and their restatements.
///
/// A closed month's figures (`PeriodFigures`) are what finance signed. A later import that would
/// change one is a restatement: refused unless the import allows it, and then recorded here
/// (period, report, figure, old, new, file, when, who) for `fleetkit status` and the reports'
/// data-quality table. Forgetting a file is held to the same rule (`Corrections`).
public enum MonthEnd {
    public struct Closed: Sendable, Equatable {
        public var period: String
        public var closedAt: Int64
        public var closedBy: String
    }

    public struct Restatement: Sendable, Equatable, Codable {
        public var period: String, report: String, figure: String, old: String, new: String
        public var filePath: String
        public var at: Int64
        public var by: String
    }

    /// Closes `period` (YYYY-MM) with its figures as they stand; nil when it was already closed
    /// (closing is idempotent: the first close's record and figures stand).
    public static func close(_ db: Database, period: String, zone: FleetZone, by: String, at: Int64 = Timestamp.now()) throws -> PeriodFigures? {
        let figures = try PeriodFigures.read(db, period: period, zone: zone)
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM period_close WHERE period = ?)", arguments: [period]) == false else { return nil }
        let json = String(decoding: try JSONEncoder().encode(figures), as: UTF8.self)
        try db.execute(sql: "INSERT INTO period_close (period, closed_at, closed_by, figures_json) VALUES (?, ?, ?, ?)",
                       arguments: [period, at, by, json])
        return figures
    }

    public static func closed(_ db: Database) throws -> [Closed] { try closed(SQLiteReader(db)) }

    /// The closed months, in order (`WarehouseReader`: reports read them on either engine).
    public static func closed(_ reader: any WarehouseReader) throws -> [Closed] {
        try reader.all("SELECT period, closed_at, closed_by FROM period_close ORDER BY \(reader.dialect.ascending("period", text: true))") {
            Closed(period: try $0[0], closedAt: try $0[1], closedBy: try $0[2])
        }
    }

    /// The figures of every closed period as they stand now.
    public static func snapshot(_ db: Database, zone: FleetZone) throws -> [PeriodFigures] {
        try closed(db).map { try PeriodFigures.read(db, period: $0.period, zone: zone) }
    }

    /// What changed in the closed periods since `before` (a `snapshot` taken in the same
    /// transaction, before a load or a forget).
    public static func changes(_ db: Database, since before: [PeriodFigures], zone: FleetZone) throws -> [PeriodFigures.Change] {
        try before.flatMap { $0.changes(to: try PeriodFigures.read(db, period: $0.period, zone: zone)) }
    }

    /// Why a file that would restate closed months is refused, with the figures it would change.
    public static func refusal(_ changes: [PeriodFigures.Change]) -> String {
        let periods = Array(Set(changes.map(\.period))).sorted()
        let shown = changes.prefix(8).map(\.text).joined(separator: "; ") + (changes.count > 8 ? "; … (\(changes.count) figures)" : "")
        return "it would change \(changes.count) figure\(changes.count == 1 ? "" : "s") of closed period\(periods.count == 1 ? "" : "s") "
            + "\(periods.joined(separator: ", ")) (a restatement): \(shown). To apply it, import it with --allow-restatement "
            + "(each change is recorded in the restatement ledger, shown by `fleetkit status` and the reports)"
    }

    /// Records applied restatements in the ledger.
    public static func record(_ db: Database, _ changes: [PeriodFigures.Change], filePath: String, sha256: String, by: String,
                              at: Int64 = Timestamp.now()) throws {
        for c in changes {
            try db.execute(sql: """
                INSERT INTO restatement (period, report, figure, old_value, new_value, file_path, file_sha256, at, by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [c.period, c.report, c.figure, c.old, c.new, filePath, sha256, at, by])
        }
    }

    /// The ledger, oldest first; of the periods `periods` when given.
    public static func restatements(_ db: Database, periods: [String]? = nil) throws -> [Restatement] {
        try restatements(SQLiteReader(db), periods: periods)
    }

    public static func restatements(_ reader: any WarehouseReader, periods: [String]? = nil) throws -> [Restatement] {
        var sql = "SELECT period, report, figure, old_value, new_value, file_path, at, by FROM restatement"
        var arguments: [WarehouseArgument] = []
        if let periods {
            guard !periods.isEmpty else { return [] }
            sql += " WHERE period IN (\(Array(repeating: "?", count: periods.count).joined(separator: ", ")))"
            arguments = periods.map(WarehouseArgument.text)
        }
        return try reader.all(sql + " ORDER BY id", arguments) {
            Restatement(period: try $0[0], report: try $0[1], figure: try $0[2], old: try $0[3], new: try $0[4], filePath: try $0[5], at: try $0[6], by: try $0[7])
        }
    }

    /// The months (YYYY-MM) that `from`…`to` (local days) touch.
    public static func months(from: CivilDate, to: CivilDate) -> [String] {
        var out: [String] = []
        var m = CivilDate(year: from.year, month: from.month, day: 1)!
        while m <= to {
            out.append(String(format: "%04d-%02d", m.year, m.month))
            m = m.adding(months: 1)
        }
        return out
    }

    /// The months the nightly job's `close_after_days` closes on `asOf` (docs/OPERATIONS.md,
    /// "Closing months"). A month is closed automatically when it is due (its end is at least
    /// `afterDays` days before `asOf`), holds data (costs, DVIRs, services or daily rollups), and
    /// is later than every month already closed; when none is closed yet, only the latest due
    /// month is. So the job closes last month's books as they fall due and catches up on
    /// nights it missed, but never closes the history a new warehouse is loaded with, nor a
    /// month with nothing in it: those are closed by hand with `fleetkit close`.
    /// Returns the months it closed.
    public static func closeDue(_ db: Database, asOf: CivilDate, afterDays: Int, zone: FleetZone, by: String) throws -> [String] {
        let earliest = try Int64.fetchOne(db, sql: """
            SELECT MIN(t) FROM (SELECT MIN(at) AS t FROM fuel_purchase UNION ALL SELECT MIN(at) FROM expense
            UNION ALL SELECT MIN(performed_at) FROM maintenance_record UNION ALL SELECT MIN(signed_at) FROM dvir
            UNION ALL SELECT MIN(at) FROM fuel_dispense)
            """)
        let firstDay = try String.fetchOne(db, sql: "SELECT MIN(day) FROM asset_day").flatMap { CivilDate($0) }
        let candidates = [earliest.map { zone.day(of: $0) }, firstDay].compactMap { $0 }
        guard let first = candidates.min() else { return [] }
        let latestClosed = try String.fetchOne(db, sql: "SELECT MAX(period) FROM period_close")
        var due: [String] = []
        for period in months(from: first, to: asOf) {
            guard let (y, m) = PeriodFigures.month(period), let start = CivilDate(year: y, month: m, day: 1) else { continue }
            let end = start.adding(months: 1)
            guard end.adding(days: afterDays) <= asOf, latestClosed.map({ period > $0 }) ?? true,
                  try holdsData(db, from: zone.start(of: start), to: zone.start(of: end), days: (start, end)) else { continue }
            due.append(period)
        }
        let toClose = latestClosed == nil ? Array(due.suffix(1)) : due
        var closedNow: [String] = []
        for period in toClose where try close(db, period: period, zone: zone, by: by) != nil { closedNow.append(period) }
        return closedNow
    }

    /// The months (YYYY-MM, local days of `zone`) of the cost, DVIR and service rows the files
    /// `fileIDs` stored: the periods whose signed figures those files changed. Telematics
    /// (positions, meters) is not read here: a night's telematics is of the days just past, which
    /// the configured periods cover, and its tables are too large to scan every night.
    public static func touchedMonths(_ db: Database, fileIDs: [Int64], zone: FleetZone) throws -> [String] {
        guard !fileIDs.isEmpty else { return [] }
        let ids = fileIDs.map(String.init).joined(separator: ",")
        var months = Set<String>()
        for sql in ["SELECT DISTINCT at FROM fuel_purchase WHERE source_file_id IN (\(ids))",
                    "SELECT DISTINCT at FROM expense WHERE source_file_id IN (\(ids))",
                    "SELECT DISTINCT at FROM fuel_dispense WHERE source_file_id IN (\(ids))",
                    "SELECT DISTINCT at FROM tank_delivery WHERE source_file_id IN (\(ids))",
                    "SELECT DISTINCT performed_at FROM maintenance_record WHERE source_file_id IN (\(ids))",
                    "SELECT DISTINCT signed_at FROM dvir WHERE source_file_id IN (\(ids))"] {
            let times = try Int64.fetchCursor(db, sql: sql)
            while let at = try times.next() {
                let day = zone.day(of: at)
                months.insert(String(format: "%04d-%02d", day.year, day.month))
            }
        }
        return months.sorted()
    }

    /// True when any cost, DVIR, service or daily rollup falls in `from..<to` (local days `days`).
    static func holdsData(_ db: Database, from: Int64, to: Int64, days: (CivilDate, CivilDate)) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM fuel_purchase WHERE at >= ?1 AND at < ?2)
                OR EXISTS (SELECT 1 FROM expense WHERE at >= ?1 AND at < ?2)
                OR EXISTS (SELECT 1 FROM fuel_dispense WHERE at >= ?1 AND at < ?2)
                OR EXISTS (SELECT 1 FROM maintenance_record WHERE performed_at >= ?1 AND performed_at < ?2)
                OR EXISTS (SELECT 1 FROM dvir WHERE signed_at >= ?1 AND signed_at < ?2)
                OR EXISTS (SELECT 1 FROM asset_day WHERE day >= ?3 AND day < ?4)
            """, arguments: [from, to, days.0.description, days.1.description]) ?? false
    }
}
