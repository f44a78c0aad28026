import GRDB
import FleetCore

/// Unit numbers typed by hand (a fuel card's vehicle prompt, an expense sheet) that differ from
/// master data only in case and punctuation: `v-101`, `V101` and `V 101` are all `V-101`.
///
/// The rule (docs/FORMATS.md, "Identity"): a unit number that no asset has is compared with the
/// master-data unit numbers by its letters and digits alone, lower-cased (`key`). When exactly
/// one master-data asset has that key, the row is that asset's; otherwise a new asset is created
/// as before, and named on the import line with the master-data units it might mean. Master data
/// itself is never folded (two units `T-01` and `T01` there are two assets), and when master data
/// arrives after the facts, it adopts the assets the facts created under a spelling of its unit
/// (when no VIN or PIN contradicts it), so the import order does not matter.
///
/// The warehouse's master-data units are read once per fact file, when a unit is first not
/// found; its auto-created units once per master-data file. Neither grows with the rows of the
/// file that reads it (a master file of 114,000 assets kept each in a map: 14 MB), and both are
/// forgotten after a merge.
struct UnitFolding {
    struct Unit {
        var id: Int64
        var unit: String
    }

    static let nearbyLimit = 20_000
    private var masters: [String: [Unit]]?
    private var autos: [String: [Unit]]?

    /// Letters and digits only, lower-cased: `V-101`, `v101` and `V 101` give `v101`.
    static func key(_ unit: String) -> String {
        String(String.UnicodeScalarView(unit.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }))
    }

    private static func read(_ db: Database, auto: Bool) throws -> [String: [Unit]] {
        var out: [String: [Unit]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, unit_number FROM asset WHERE unit_number IS NOT NULL AND auto_created = ?", arguments: [auto]) {
            let u = Unit(id: row[0], unit: row[1])
            out[Self.key(u.unit), default: []].append(u)
        }
        return out
    }

    private mutating func load(_ db: Database) throws -> [String: [Unit]] {
        if let masters { return masters }
        let m = try Self.read(db, auto: false)
        masters = m
        return m
    }

    /// True when the warehouse has master-data assets with unit numbers.
    mutating func hasMasters(_ db: Database) throws -> Bool { !(try load(db)).isEmpty }

    /// The master-data assets whose unit has the key of `unit`.
    mutating func masters(matching unit: String, _ db: Database) throws -> [Unit] {
        try load(db)[Self.key(unit)] ?? []
    }

    /// The assets the facts created under a spelling of `unit`, other than `id`.
    mutating func autos(matching unit: String, except id: Int64, _ db: Database) throws -> [Unit] {
        if autos == nil { autos = try Self.read(db, auto: true) }
        return (autos?[Self.key(unit)] ?? []).filter { $0.id != id }
    }

    /// Master-data units one letter or digit away from `unit` (a typo), at most three. Not
    /// looked for past `nearbyLimit` master units: each unknown unit would cost a pass over them.
    mutating func nearby(_ unit: String, _ db: Database) throws -> [String] {
        let key = Self.key(unit)
        var out: [String] = []
        let all = try load(db)
        guard all.count <= Self.nearbyLimit else { return [] }
        for (k, units) in all where Self.withinOneEdit(Array(k.unicodeScalars), Array(key.unicodeScalars)) {
            out += units.map(\.unit)
        }
        return Array(out.sorted().prefix(3))
    }

    /// Keeps what was read true when a file creates or defines an asset; adds nothing to a part
    /// not read, so neither grows with the file.
    mutating func added(id: Int64, unit: String?, master: Bool) {
        guard let unit else { return }
        let k = Self.key(unit)
        if master {
            autos?[k]?.removeAll { $0.id == id }
            if masters != nil, masters?[k]?.contains(where: { $0.id == id }) != true { masters?[k, default: []].append(Unit(id: id, unit: unit)) }
        } else if autos != nil {
            autos?[k, default: []].append(Unit(id: id, unit: unit))
        }
    }

    /// Forgets what was read: after a merge, or a rollback.
    mutating func reset() { masters = nil; autos = nil }

    /// True when `a` and `b` differ by at most one inserted, deleted or replaced character.
    static func withinOneEdit(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if abs(a.count - b.count) > 1 { return false }
        var i = 0, j = 0, edits = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if a.count > b.count { i += 1 } else if a.count < b.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (a.count - i) + (b.count - j) <= 1
    }
}
