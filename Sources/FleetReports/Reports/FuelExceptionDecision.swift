import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// A person's word on a fuel exception (`fleetkit review exception accept|reject`): accepted
/// (the purchase stands as charged; the reason says why) or rejected (the purchase is not the
/// fleet's cost: it leaves the cost report's totals and fuel figures and is listed there with the
/// reason). Kept append-only with who and when in `fuel_exception_decision`; the latest decision
/// of an exception is its state. A decided exception stays in the fuel-exceptions report beside
/// its decision: it is no longer open, never removed.
///
/// An exception is named by its id, `PURCHASE/rule`: the purchase's natural key
/// (`fuel_purchase.source_key`, e.g. `card:T2026101400012`; a receipt's is the hash of its
/// image) and the rule. What the source data names, so a decision outlives re-imports, `forget`
/// and re-import of the file, and applies again when the same purchase is read again.
///
/// A decision that changes a figure of a closed month (a rejected purchase leaves its month's
/// counted costs; an accept after a reject puts it back) is a restatement, held to the rule of
/// every other change to a closed month (`MonthEnd`): refused unless allowed, then recorded.
public struct FuelExceptionDecision: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        case accepted, rejected
    }

    public var state: State
    public var reason: String
    public var by: String
    public var at: Int64

    /// The exception id: `PURCHASE/rule` (the key may hold '/'; the rule never does).
    static func id(purchase: String, rule: FuelExceptions.Rule) -> String { "\(purchase)/\(rule.rawValue)" }

    /// The latest decision of every decided exception, by exception id; none before the
    /// warehouse has the table.
    static func latest(_ db: Database) throws -> [String: FuelExceptionDecision] {
        try latest(SQLiteReader(db))
    }

    static func latest(_ reader: any WarehouseReader) throws -> [String: FuelExceptionDecision] {
        guard try reader.tableExists("fuel_exception_decision") else { return [:] }
        var out: [String: FuelExceptionDecision] = [:]
        try reader.forEach("SELECT purchase, rule, decision, reason, decided_by, decided_at FROM fuel_exception_decision ORDER BY id", []) { r in
            guard let rule = FuelExceptions.Rule(rawValue: try r[1]), let state = State(rawValue: try r[2]) else { return }
            out[id(purchase: try r[0], rule: rule)] = FuelExceptionDecision(state: state, reason: try r[3], by: try r[4], at: try r[5])
        }
        return out
    }

    /// An SQL expression, on fuel purchase alias `x`, that is NULL unless the purchase is
    /// rejected (`CountedCosts.rejectedSQL`, the same condition), and else the latest rejecting
    /// decision as `id␟reason␟by␟at` for `rejectionText`.
    /// The separator is a literal U+001F in the SQL text (both engines take it in a string;
    /// SQLite's `char(31)` is not PostgreSQL's `chr(31)`); the time is epoch milliseconds on both
    /// (PostgreSQL keeps a `timestamptz`).
    static func rejectionSQL(_ reader: any WarehouseReader, _ x: String) throws -> String {
        guard try reader.tableExists("fuel_exception_decision") else { return "NULL" }
        return """
            (SELECT d.purchase || '/' || d.rule || '\u{1F}' || d.reason || '\u{1F}' || d.decided_by || '\u{1F}' || CAST(CAST(\(reader.dialect.epochMilliseconds("d.decided_at")) AS BIGINT) AS TEXT)
             FROM fuel_exception_decision d WHERE d.purchase = \(x).source_key AND d.decision = 'rejected'
             AND NOT EXISTS (SELECT 1 FROM fuel_exception_decision e WHERE e.purchase = d.purchase AND e.rule = d.rule AND e.id > d.id)
             ORDER BY d.id DESC LIMIT 1)
            """
    }

    /// `rejected as ID by WHO at TIME: REASON`, from `rejectionSQL`'s value.
    static func rejectionText(_ value: String?) -> String? {
        guard let value else { return nil }
        let p = value.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        guard p.count == 4, let at = Int64(p[3]) else { return "rejected: " + value }
        return "rejected as \(p[0]) by \(p[2]) at \(Timestamp.iso(at)): \(p[1])"
    }

    /// An id that names no exception FleetKit finds: what to match (the id, or its purchase key
    /// when no such purchase is stored), why, and what there is to choose from (the purchase's
    /// exceptions, or up to 10,000 stored purchase keys within two characters of its length).
    public struct UnknownException: Error, CustomStringConvertible {
        public var value: String
        public var reason: String
        public var candidates: [String]
        public var description: String { "no fuel exception '\(value)': \(reason)" }
    }

    /// Refused: the decision would change figures of closed months, and was not allowed to.
    public struct RestatementRefused: Error, CustomStringConvertible {
        public var changes: [PeriodFigures.Change]
        public var description: String {
            MonthEnd.refusal(changes).replacingOccurrences(of: "import it with", with: "record the decision with") + "; nothing was recorded"
        }
    }

    /// What `record` did: the purchase's unit, the exception's evidence, and the figures of
    /// closed months it restated (recorded in the ledger).
    public struct Outcome: Sendable, Equatable {
        public var unit: String
        public var evidence: String
        public var restatements: [PeriodFigures.Change]
    }

    /// Records `state` with `reason` for the exception `id`, after checking that the
    /// fuel-exceptions report of the purchase's local month finds it, in one transaction with
    /// the closed months' check (`MonthEnd`): figures it changes are refused unless
    /// `allowRestatement`, and then recorded in the restatement ledger.
    /// - throws: `UnknownException` for an id that names none; `RestatementRefused`;
    ///   `FleetError.invalidArgument` for an empty reason.
    public static func record(_ warehouse: Warehouse, exception id: String, _ state: State, reason: String, by person: String,
                              allowRestatement: Bool, at now: Int64 = Timestamp.now()) throws -> Outcome {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else {
            throw FleetError.invalidArgument(name: "--reason", value: "", hint: "say why the exception is \(state.rawValue): an auditor reads it beside the purchase")
        }
        let rules = FuelExceptions.Rule.allCases.map(\.rawValue)
        guard let slash = id.lastIndex(of: "/"), slash != id.startIndex, let rule = FuelExceptions.Rule(rawValue: String(id[id.index(after: slash)...])) else {
            throw UnknownException(value: id, reason: "an exception id is PURCHASE/rule, as the fuel-exceptions report's \"Exception id\" column shows; the rules are "
                                   + rules.joined(separator: ", "), candidates: [])
        }
        let key = String(id[..<slash])
        let settings = try warehouse.settings()
        var outcome: Outcome?
        do {
            try warehouse.pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    guard var purchase = try Row.fetchOne(db, sql: "SELECT id, at, linked_to, source_file_id FROM fuel_purchase WHERE source_key = ?", arguments: [key]) else {
                        // Keys near it in length, at most 10,000: what a close match can be, in bounded memory.
                        let keys = try String.fetchAll(db, sql: """
                            SELECT source_key FROM fuel_purchase WHERE linked_to IS NULL AND length(source_key) BETWEEN ? AND ?
                            ORDER BY source_key LIMIT 10000
                            """, arguments: [key.count - 2, key.count + 2])
                        throw UnknownException(value: key, reason: "no fuel purchase \(key) is in the warehouse", candidates: keys)
                    }
                    var judged = key
                    if let card: Int64 = purchase["linked_to"], let fill = try Row.fetchOne(db, sql: "SELECT id, at, linked_to, source_file_id, source_key FROM fuel_purchase WHERE id = ?", arguments: [card]) {
                        judged = fill["source_key"]
                        purchase = fill
                    }
                    let day = settings.zone.day(of: purchase["at"])
                    let month = ReportPeriod.month(day.year, day.month)
                    let request = ReportRequest(period: month, zone: settings.zone, units: settings.units, currency: settings.currency,
                                                generatedAt: now, asOf: month.to, carrier: settings.carrier)
                    let found = try FuelExceptions.compute(db, request).exceptions.filter { $0.fill.sourceKey == judged }
                    guard let exception = found.first(where: { $0.rule == rule }), judged == key else {
                        let ids = found.map { Self.id(purchase: judged, rule: $0.rule) }
                        throw UnknownException(value: id, reason: judged != key ? "\(key) is the same fill as \(judged), whose exceptions carry its key"
                                               : ids.isEmpty ? "the fuel-exceptions report of \(month.from.description.prefix(7)) finds none on \(key)"
                                               : "\(key) has other exceptions", candidates: ids)
                    }
                    let before = try MonthEnd.snapshot(db, zone: settings.zone)
                    let unit = exception.fill.unit ?? "Unassigned"
                    try db.execute(sql: """
                        INSERT INTO fuel_exception_decision (purchase, rule, unit, decision, reason, decided_by, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [key, rule.rawValue, unit, state.rawValue, reason, person, now])
                    let changes = try MonthEnd.changes(db, since: before, zone: settings.zone)
                    if !changes.isEmpty {
                        guard allowRestatement else { throw RestatementRefused(changes: changes) }
                        let sha = try String.fetchOne(db, sql: "SELECT sha256 FROM source_file WHERE id = ?", arguments: [purchase["source_file_id"] as Int64]) ?? ""
                        try MonthEnd.record(db, changes, filePath: "review exception \(state == .accepted ? "accept" : "reject") \(id)", sha256: sha, by: person, at: now)
                    }
                    outcome = Outcome(unit: unit, evidence: exception.evidence, restatements: changes)
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            throw Warehouse.explain(error, path: warehouse.path, doing: "record the decision on \(id)")
        }
        return outcome!
    }
}
