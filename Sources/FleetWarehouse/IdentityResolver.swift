import GRDB
import FleetCore

/// Turns an `AssetRef` into one asset id, creating or merging assets as the ref requires.
///
/// Trust order (DESIGN §3): normalised VIN or PIN, then a vendor identifier already linked, then
/// the unit number. Names are never matched. When the identifiers of one ref point at two
/// different assets, the ref proves they are the same asset and the two are merged, which makes
/// the result independent of the order in which files arrive.
struct IdentityResolver {
    private var cache: [AssetRef: Int64] = [:]
    private var merged: Set<Int64> = []

    /// Assets that absorbed another since the last call: their derived tables need a rebuild.
    mutating func takeMerged() -> Set<Int64> {
        defer { merged.removeAll() }
        return merged
    }

    mutating func resolve(_ ref: AssetRef, in db: Database, sourceFileID: Int64) throws -> Int64 {
        if let id = cache[ref] { return id }
        guard ref.isResolvable else { throw RowError(.unknownAsset, "the row names no asset (no VIN, PIN, vendor id or unit number)") }
        var found: [Int64] = []
        func add(_ id: Int64?) { if let id, !found.contains(id) { found.append(id) } }
        if let vin = ref.vin { add(try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM asset WHERE vin = ?"), arguments: [vin])) }
        if let pin = ref.pin { add(try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM asset WHERE pin = ?"), arguments: [pin])) }
        for i in ref.identifiers {
            add(try Int64.fetchOne(db.cachedStatement(sql: "SELECT asset_id FROM asset_identifier WHERE source = ? AND id_type = ? AND id_value = ?"),
                                   arguments: [i.source, i.type, i.value]))
        }
        if let unit = ref.unitNumber { add(try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM asset WHERE unit_number = ?"), arguments: [unit])) }

        let id: Int64
        if found.isEmpty {
            var asset = Asset(unitNumber: ref.unitNumber, kind: (ref.kind ?? .vehicle).rawValue, name: ref.name, vin: ref.vin,
                              pin: ref.pin, make: ref.make, model: ref.model, year: ref.year, autoCreated: true)
            try asset.insert(db)
            id = asset.id!
        } else {
            let survivor = try Self.survivor(of: found, in: db)
            for other in found where other != survivor {
                try AssetMerger.merge(other, into: survivor, in: db)
                cache.removeAll()
                merged.insert(survivor)
            }
            id = survivor
            try attach(ref, to: id, in: db)
        }
        for i in ref.identifiers {
            try db.cachedStatement(sql: "INSERT INTO asset_identifier(asset_id, source, id_type, id_value) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
                .execute(arguments: [id, i.source, i.type, i.value])
        }
        cache[ref] = id
        return id
    }

    /// Master-data assets win over auto-created ones; among equals the oldest id survives.
    static func survivor(of ids: [Int64], in db: Database) throws -> Int64 {
        let list = ids.map(String.init).joined(separator: ",")
        return try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE id IN (\(list)) ORDER BY auto_created, id LIMIT 1")!
    }

    /// Gives the asset the ref's VIN, PIN and unit number when it lacks them, refusing a ref
    /// that contradicts what the asset already is.
    private func attach(_ ref: AssetRef, to id: Int64, in db: Database) throws {
        guard let asset = try Asset.fetchOne(db, key: id) else { return }
        if let vin = ref.vin, let has = asset.vin, has != vin {
            throw RowError(.identityConflict, "this row links VIN \(vin) to \(Self.label(asset)), which already has VIN \(has); correct the VIN or the vendor id mapping")
        }
        if let pin = ref.pin, let has = asset.pin, has != pin {
            throw RowError(.identityConflict, "this row links PIN \(pin) to \(Self.label(asset)), which already has PIN \(has)")
        }
        if let unit = ref.unitNumber, let has = asset.unitNumber, has != unit {
            throw RowError(.identityConflict, "this row names unit \(unit), but its other identifiers belong to unit \(has)")
        }
        try db.execute(sql: """
            UPDATE asset SET vin = COALESCE(vin, ?), pin = COALESCE(pin, ?), unit_number = COALESCE(unit_number, ?),
                name = COALESCE(name, ?), make = COALESCE(make, ?), model = COALESCE(model, ?), year = COALESCE(year, ?)
            WHERE id = ?
            """, arguments: [ref.vin, ref.pin, ref.unitNumber, ref.name, ref.make, ref.model, ref.year, id])
    }

    static func label(_ asset: Asset) -> String {
        if let u = asset.unitNumber { return "unit \(u)" }
        if let v = asset.vin { return "VIN \(v)" }
        if let p = asset.pin { return "PIN \(p)" }
        return "asset #\(asset.id ?? 0)"
    }
}
