import GRDB
import FleetCore

/// A fact that falls in a reporting period by one instant of its own (a fill's time, a
/// service's date, a DVIR's signature). An update of its stored row can move it to another
/// period, which changes two months' figures at once: never silent (`WarehouseSink.upsert`).
public protocol PeriodRecord: LoadableRecord {
    /// The column of `periodAt`, read back from the stored row.
    static var periodColumn: String { get }
    /// What the row names this fact in messages ("fuel purchase", "DVIR").
    static var periodNoun: String { get }
    var periodAt: Int64 { get }
    var periodKey: String { get }
}

extension PeriodRecord {
    public static var isPeriodRecord: Bool { true }
}

extension FuelPurchase: PeriodRecord {
    public static var periodColumn: String { "at" }
    public static var periodNoun: String { "fuel purchase" }
    public var periodAt: Int64 { at }
    public var periodKey: String { sourceKey }
}

extension Expense: PeriodRecord {
    public static var periodColumn: String { "at" }
    public static var periodNoun: String { "expense" }
    public var periodAt: Int64 { at }
    public var periodKey: String { sourceKey }
}

extension TankDelivery: PeriodRecord {
    public static var periodColumn: String { "at" }
    public static var periodNoun: String { "tank delivery" }
    public var periodAt: Int64 { at }
    public var periodKey: String { sourceKey }
}

extension FuelDispense: PeriodRecord {
    public static var periodColumn: String { "at" }
    public static var periodNoun: String { "fuel dispense" }
    public var periodAt: Int64 { at }
    public var periodKey: String { sourceKey }
}

extension MaintenanceRecord: PeriodRecord {
    public static var periodColumn: String { "performed_at" }
    public static var periodNoun: String { "maintenance record" }
    public var periodAt: Int64 { performedAt }
    public var periodKey: String { sourceKey }
}

extension DVIR: PeriodRecord {
    public static var periodColumn: String { "signed_at" }
    public static var periodNoun: String { "DVIR" }
    public var periodAt: Int64 { signedAt }
    public var periodKey: String { sourceKey }
}

/// The stored rows a file's updates moved to another month, counted with the first few named.
public struct PeriodMoves: Sendable, Equatable {
    public internal(set) var count = 0
    public internal(set) var examples: [String] = []

    mutating func add(_ example: String) {
        count += 1
        if examples.count < NoteLedger.maxExamples { examples.append(example) }
    }

    /// The note the import line shows, or nil when nothing moved.
    public var note: String? {
        guard count > 0 else { return nil }
        let more = count > examples.count ? "; …" : ""
        return "\(count) stored row\(count == 1 ? "" : "s") moved to another month by a later version with the same id "
            + "(both months' figures changed; if the source reuses ids, `fleetkit forget` this file): "
            + examples.joined(separator: "; ") + more
    }
}

extension WarehouseSink {
    /// Why a DVIR row is rejected when its id is stored for another day.
    public static let dvirDayConflict: Issue.Reason = "dvir_day_conflict"

    /// The rule for a fact whose key is already stored with an instant in another period:
    ///
    /// - A DVIR is a retained record (49 CFR 396.11: kept three months, handed to auditors).
    ///   One whose id is stored for another local day is a different inspection under a reused
    ///   id, or a correction of the day: either way the stored inspection is never overwritten
    ///   (it would vanish from its day's compliance). The row is rejected with
    ///   `dvir_day_conflict`, kept with its raw text; a real correction is made by forgetting
    ///   the earlier file first.
    /// - Any other fact is updated as before (a later export of the same id is a correction),
    ///   and when that moves it to another local month the file's `moves` count it and name
    ///   the first few: the earlier month's figures changed, which is never silent.
    ///
    /// Returns the stored row's instant and file when the key is stored in another month.
    mutating func periodChange<R: PeriodRecord>(_ record: R) throws -> (at: Int64, file: Int64?)? {
        guard let stored = try loader.stored(record, column: R.periodColumn), stored.at != record.periodAt else { return nil }
        let zone = derive?.zone ?? .utc
        let before = zone.day(of: stored.at), after = zone.day(of: record.periodAt)
        if R.self == DVIR.self {
            guard before != after else { return nil }
            throw RowError(Self.dvirDayConflict, "DVIR \(record.periodKey) is stored for \(before)\(try fileName(stored.file).map { " (from \($0))" } ?? ""); "
                + "this row signs it on \(after). A retained inspection is never replaced by one of another day: if the source reused the id, "
                + "ask for unique ids; if the day was corrected, run `fleetkit forget` on the earlier file, then import this one again")
        }
        guard before.year != after.year || before.month != after.month else { return nil }
        return stored
    }

    /// Counts an update that moved a row (`periodChange`).
    mutating func countMove<R: PeriodRecord>(_ record: R, from stored: (at: Int64, file: Int64?)) throws {
        let zone = derive?.zone ?? .utc
        moves.add("\(R.periodNoun) \(record.periodKey) \(zone.day(of: stored.at)) → \(zone.day(of: record.periodAt))"
            + (try fileName(stored.file).map { " (was from \($0))" } ?? ""))
    }

    private func fileName(_ id: Int64?) throws -> String? {
        guard let id else { return nil }
        return try String.fetchOne(db.cachedStatement(sql: "SELECT path FROM source_file WHERE id = ?"), arguments: [id])
            .map { String($0.split(separator: "/").last ?? Substring($0)) }
    }
}
