import Foundation
import GRDB
import FleetCore

/// Turns an `AssetRef` into one asset id, creating or merging assets as the ref requires.
///
/// Trust order (docs/FORMATS.md, "Identity"): normalised VIN or PIN, then a vendor identifier already linked, then
/// the unit number. Names are never matched. When the identifiers of one ref point at two
/// different assets, the ref proves they are the same asset and the two are merged, which makes
/// the result independent of the order in which files arrive.
struct IdentityResolver {
    /// Refs resolved in this file, so that a feed naming the same machines on every row looks
    /// each up once. Bounded (`cacheLimit`, then emptied): a master-data file or a fleet
    /// snapshot names each asset once, so an unbounded cache only grew with the assets a file
    /// creates (0.45 KB per asset, 82 -> 157 MB for 57,000 -> 227,000 assets) and never hit. A
    /// miss repeats the lookup, which finds the same asset: the cache changes speed, not results.
    private var cache: [AssetRef: Int64] = [:]
    /// Far more machines than a feed sends per page, far fewer than a master file can hold.
    static let cacheLimit = 4096
    private var merged: Set<Int64> = []
    /// Unit numbers matched by their letters and digits (`UnitFolding`).
    private var folding = UnitFolding()
    /// What the import line says about unit numbers not in master data: (kind, example).
    private(set) var notes: [(kind: String, example: String)] = []
    private var createdNoted = 0

    static let foldedNote = "unit numbers not in master data read as the master-data unit with the same letters and digits (case and punctuation ignored)"
    static let createdNote = "unit numbers not in master data, created as new assets (`fleetkit status` lists them)"

    mutating func takeNotes() -> [(kind: String, example: String)] {
        defer { notes.removeAll() }
        return notes
    }

    /// Assets that absorbed another since the last call: their derived tables need a rebuild.
    mutating func takeMerged() -> Set<Int64> {
        defer { merged.removeAll() }
        return merged
    }

    /// `master` is true for master data defining the asset: its unit number is never folded,
    /// and it adopts the assets facts created under another spelling of it (`UnitFolding`).
    mutating func resolve(_ ref: AssetRef, in db: Database, sourceFileID: Int64, master: Bool = false) throws -> Int64 {
        if let id = cache[ref] { return id }
        let cacheKey = ref
        var ref = Self.withoutIdentifierName(ref)
        // Every ref of every importer passes here: the one place identifiers are refused.
        if let problem = ref.identifierProblem { throw problem }
        guard ref.isResolvable else { throw RowError(.unknownAsset, "the row names no asset (no VIN, PIN, vendor id or unit number)") }
        // Every asset the ref's identifiers name (AssetLookup): two or more are one asset.
        let found = try AssetLookup(db).all(ref)

        var id: Int64
        var folded: Int64?
        // Master data reads the warehouse's auto-created units before it creates one.
        if master, let unit = ref.unitNumber { _ = try folding.autos(matching: unit, except: -1, db) }
        if found.isEmpty, !master, let unit = ref.unitNumber {
            // A unit number no asset has: the master-data unit with the same letters and digits,
            // when exactly one has them; else a new asset, named on the import line.
            let same = try folding.masters(matching: unit, db)
            if same.count == 1 {
                folded = same[0].id
                notes.append((Self.foldedNote, "'\(unit)' → \(same[0].unit)"))
                ref.unitNumber = nil
            } else if try folding.hasMasters(db) {
                // The import line shows the first few (`NoteLedger.maxExamples`) and counts the
                // rest: a did-you-mean is looked for only for those it shows.
                createdNoted += 1
                let near = createdNoted > NoteLedger.maxExamples ? [] : same.isEmpty ? try folding.nearby(unit, db) : same.map { $0.unit }.sorted()
                notes.append((Self.createdNote, "'\(unit)'" + (near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)")))
            }
        }
        if let folded {
            id = folded
            try checkSingleValued(ref, on: id, in: db)
            try attach(ref, to: id, in: db)
        } else if found.isEmpty {
            // Cached SQL from `Asset.writtenColumns`, not GRDB's Codable insert (which builds its
            // SQL on every call); the columns the ref does not give are NULL, no source file.
            let created = Asset(unitNumber: ref.unitNumber, kind: (ref.kind ?? .vehicle).rawValue, name: ref.name, vin: ref.vin, pin: ref.pin,
                                make: ref.make, model: ref.model, year: ref.year, autoCreated: true)
            try CachedQuery.execute(db, Asset.insertSQL) { Asset.writtenColumns.bind(created, into: &$0) }
            id = db.lastInsertedRowID
            folding.added(id: id, unit: ref.unitNumber, master: master)
        } else {
            let survivor = try Self.survivor(of: found, in: db)
            for other in found where other != survivor {
                try AssetMerger.merge(other, into: survivor, in: db)
                cache.removeAll()
                folding.reset()
                merged.insert(survivor)
            }
            id = survivor
            try checkSingleValued(ref, on: id, in: db)
            try attach(ref, to: id, in: db)
            if master { folding.added(id: id, unit: ref.unitNumber, master: true) }
        }
        if master, let unit = ref.unitNumber { try adoptSpellings(of: unit, into: id, in: db) }
        for i in ref.identifiers {
            try CachedQuery.execute(db, AssetIdentifier.insertSQL) {
                AssetIdentifier.columnTable.bind(AssetIdentifier(assetID: id, source: i.source, idType: i.type, idValue: i.value), into: &$0)
            }
        }
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[cacheKey] = id
        return id
    }

    /// Master data defining `unit` takes in the assets facts created earlier under another
    /// spelling of it (`v-101` before master data's `V-101`), so the warehouse is the same in
    /// either import order. Not when another master-data asset has the same letters and digits
    /// (which one is meant cannot be told), nor when a VIN or PIN contradicts.
    private mutating func adoptSpellings(of unit: String, into id: Int64, in db: Database) throws {
        let spellings = try folding.autos(matching: unit, except: id, db)
        guard !spellings.isEmpty, try folding.masters(matching: unit, db).allSatisfy({ $0.id == id }) else { return }
        let q = "SELECT vin, pin FROM asset WHERE id = ?"
        guard let mine = try Row.fetchOne(db, sql: q, arguments: [id]) else { return }
        for other in spellings {
            guard let theirs = try Row.fetchOne(db, sql: q + " AND auto_created = 1", arguments: [other.id]) else { continue }
            let contradicts = [0, 1].contains { i in
                let a: String? = mine[i], b: String? = theirs[i]
                return a != nil && b != nil && a != b
            }
            guard !contradicts else { continue }
            try db.execute(sql: "UPDATE asset SET unit_number = NULL WHERE id = ?", arguments: [other.id])
            try AssetMerger.merge(other.id, into: id, in: db)
            merged.insert(id)
        }
        cache.removeAll()
        folding.reset()
    }

    /// Identifier types an asset holds one value of. A machine has one maker: a feed's serial
    /// number that already belongs to OEM X's machine, sent again under OEM Y, is two makers'
    /// machines sharing a serial (or a feed that changed its OEM spelling), and is refused
    /// rather than merged in silence.
    static let singleValued: Set<[String]> = [["iso15143", "oem_serial"]]

    private func checkSingleValued(_ ref: AssetRef, on id: Int64, in db: Database) throws {
        for i in ref.identifiers where Self.singleValued.contains([i.source, i.type]) {
            guard let other = try String.fetchOne(db.cachedStatement(sql: "SELECT id_value FROM asset_identifier WHERE asset_id = ? AND source = ? AND id_type = ? AND id_value <> ?"),
                                                  arguments: [id, i.source, i.type, i.value]) else { continue }
            let asset = try Asset.fetchOne(db, key: id)
            let label = asset.flatMap { $0.unitNumber == nil ? $0.name.map { "the machine named '\($0)'" } : nil } ?? asset.map(Self.label) ?? "asset #\(id)"
            throw RowError(.identityConflict, "this row names \(i.type) '\(i.value)', but its other identifiers belong to \(label), known as \(i.type) '\(other)'; two machines share a serial number, or the feed spells its OEM differently: give the machine its PIN, or list it in assets.csv")
        }
    }

    /// Master-data assets win over auto-created ones; among equals the oldest id survives.
    static func survivor(of ids: [Int64], in db: Database) throws -> Int64 {
        // One candidate (the common case: the machine is already known) is its own survivor;
        // only a real merge needs the query, whose SQL differs with the list.
        if ids.count == 1 { return ids[0] }
        let list = ids.map(String.init).joined(separator: ",")
        return try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE id IN (\(list)) ORDER BY auto_created, id LIMIT 1")!
    }

    /// Gives the asset the ref's VIN, PIN and unit number when it lacks them, refusing a ref
    /// that contradicts what the asset already is.
    private func attach(_ ref: AssetRef, to id: Int64, in db: Database) throws {
        // The seven fields read on a cached statement, not a Codable `Asset.fetchOne(key:)`, and
        // the UPDATE skipped when it would change nothing (every machine of a second snapshot).
        let q = try CachedQuery(db, "SELECT vin, pin, unit_number, name, make, model, year, name_from_master FROM asset WHERE id = ?") { $0.bind(id) }
        guard try q.step() else { q.reset(); return }
        let has = (vin: q.optionalText(0), pin: q.optionalText(1), unit: q.optionalText(2), name: q.optionalText(3),
                   make: q.optionalText(4), model: q.optionalText(5), year: q.optionalInt64(6), nameFromMaster: q.int64(7) == 1)
        q.reset()
        let asset = Asset(id: id, unitNumber: has.unit, kind: "", vin: has.vin, pin: has.pin, autoCreated: false)
        if let vin = ref.vin, let has = asset.vin, has != vin {
            throw RowError(.identityConflict, "this row links VIN \(vin) to \(Self.label(asset)), which already has VIN \(has); correct the VIN or the vendor id mapping")
        }
        if let pin = ref.pin, let has = asset.pin, has != pin {
            throw RowError(.identityConflict, "this row links PIN \(pin) to \(Self.label(asset)), which already has PIN \(has)")
        }
        if let unit = ref.unitNumber, let has = asset.unitNumber, has != unit {
            throw RowError(.identityConflict, "this row names unit \(unit), but its other identifiers belong to unit \(has)")
        }
        // A name that is one of the asset's identifiers is no name (see `withoutIdentifierName`).
        var ref = ref
        if let name = ref.name, [has.vin, has.pin, has.unit].contains(where: { $0?.caseInsensitiveCompare(name) == .orderedSame }) { ref.name = nil }
        func fills<T>(_ mine: T?, _ stored: T?) -> Bool { mine != nil && stored == nil }
        // Two feeds naming the asset differently: the same name in any import order (`AssetNaming`).
        let name = AssetNaming.feedName(ref.name, over: has.name, storedFromMaster: has.nameFromMaster)
        guard fills(ref.vin, has.vin) || fills(ref.pin, has.pin) || fills(ref.unitNumber, has.unit) || name != has.name
                || fills(ref.make, has.make) || fills(ref.model, has.model) || fills(ref.year.map(Int64.init), has.year) else { return }
        try db.cachedStatement(sql: """
            UPDATE asset SET vin = COALESCE(vin, ?), pin = COALESCE(pin, ?), unit_number = COALESCE(unit_number, ?),
                name = ?, make = COALESCE(make, ?), model = COALESCE(model, ?), year = COALESCE(year, ?)
            WHERE id = ?
            """).execute(arguments: [ref.vin, ref.pin, ref.unitNumber, name, ref.make, ref.model, ref.year, id])
    }

    /// The ref without its name when the name is only one of its identifiers (an AEMP feed's
    /// `EquipmentID` is the VIN). Why: a feed fills an asset's name only while it has none, so
    /// the VIN stored as a name by whichever feed came first kept a later feed's real name out,
    /// and the asset was called by its VIN or by "T-03 Cascadia 126" depending on import order.
    /// Master data names still replace any feed name (`WarehouseSink.defineAsset`).
    ///
    /// A machine known only by feed identifiers (no VIN, PIN or unit number: an ISO 15143-3
    /// `EquipmentID` with a bad check digit, a serial) keeps that label as its name: without it
    /// the asset would have nothing a person can read, and master data still replaces it.
    static func withoutIdentifierName(_ ref: AssetRef) -> AssetRef {
        guard let name = ref.name?.trimmingCharacters(in: .whitespaces) else { return ref }
        let shown = [ref.vin, ref.pin, ref.unitNumber].compactMap { $0 }
        let ids = shown.isEmpty ? [] : shown + ref.identifiers.map(\.value)
        guard name.isEmpty || ids.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else { return ref }
        var out = ref
        out.name = nil
        return out
    }

    static func label(_ asset: Asset) -> String {
        if let u = asset.unitNumber { return "unit \(u)" }
        if let v = asset.vin { return "VIN \(v)" }
        if let p = asset.pin { return "PIN \(p)" }
        return "asset #\(asset.id ?? 0)"
    }
}
