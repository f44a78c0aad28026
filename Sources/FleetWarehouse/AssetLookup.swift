import GRDB
import FleetCore

/// Which stored asset is this unit number, VIN, PIN, serial or vendor id: the one place that
/// answers, for import (`WarehouseSink.findAsset`, identity resolution), review (a receipt's
/// unit goes through the importer's `findAsset`) and the reports' `--assets` filter.
///
/// Why one type: the same question was answered three times (the identity resolver's candidate
/// search, the sink's `findAsset`, and the report filter's unit-number queries), in two
/// statement styles, and a new identifier would have had to be added to each.
///
/// Trust order (docs/FORMATS.md, "Identity"): VIN (the asset's, then an ISO feed's VIN-shaped label), PIN, each
/// vendor identifier already linked, then the unit number. Names are never matched.
public struct AssetLookup {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// The asset `ref` names first in trust order, or nil: nothing is created or merged.
    /// A ref with an identifier problem (control characters) finds nothing: no stored key holds one.
    public func first(_ ref: AssetRef) throws -> Int64? {
        if ref.identifierProblem != nil { return nil }
        return try matches(ref, firstOnly: true, labelsAsVIN: false).first
    }

    /// Every stored asset `ref` names, in trust order, each once: two or more prove that they
    /// are one asset (identity resolution merges them). A feed's VIN-shaped label also matches an
    /// asset's VIN, so whichever of the feed and master data comes first they meet.
    func all(_ ref: AssetRef) throws -> [Int64] {
        try matches(ref, firstOnly: false, labelsAsVIN: true)
    }

    /// Cached statements bound directly: a fleet snapshot looks every machine up once per file,
    /// and Samsara and Deere rows once per row.
    private func matches(_ ref: AssetRef, firstOnly: Bool, labelsAsVIN: Bool) throws -> [Int64] {
        var found: [Int64] = []
        func add(_ id: Int64?) -> Bool {
            if let id, !found.contains(id) { found.append(id) }
            return firstOnly && !found.isEmpty
        }
        if let vin = ref.vin {
            if add(try CachedQuery.int64(db, "SELECT id FROM asset WHERE vin = ?") { $0.bind(vin) }) { return found }
            // A feed that named the machine by a VIN-shaped label before anyone knew its VIN.
            if add(try CachedQuery.int64(db, "SELECT asset_id FROM asset_identifier WHERE source = 'iso15143' AND id_type = 'vin_label' AND id_value = ?") {
                $0.bind(vin)
            }) { return found }
        }
        if let pin = ref.pin, add(try CachedQuery.int64(db, "SELECT id FROM asset WHERE pin = ?") { $0.bind(pin) }) { return found }
        for i in ref.identifiers {
            if add(try CachedQuery.int64(db, AssetIdentifier.assetSQL) {
                AssetIdentifier.columnTable.bindKey(AssetIdentifier(assetID: 0, source: i.source, idType: i.type, idValue: i.value), into: &$0)
            }) { return found }
            if labelsAsVIN, Self.isVINLabel(i), add(try CachedQuery.int64(db, "SELECT id FROM asset WHERE vin = ?") { $0.bind(i.value) }) {
                return found
            }
        }
        if let unit = ref.unitNumber { _ = add(try CachedQuery.int64(db, "SELECT id FROM asset WHERE unit_number = ?") { $0.bind(unit) }) }
        return found
    }

    /// An ISO feed's VIN-shaped `EquipmentID` (or PIN) is matched against asset VINs exactly,
    /// both ways, so that whichever of the feed and master data comes first they meet.
    static func isVINLabel(_ i: AssetRef.Identifier) -> Bool { i.source == "iso15143" && i.type == "vin_label" }

    // MARK: Unit numbers (`--assets`)

    /// Every unit number in the warehouse, sorted: what `--assets` may name.
    public func unitNumbers() throws -> [String] { try Self.unitNumbers(SQLiteReader(db)) }

    /// Every unit number, in byte order, on either engine.
    public static func unitNumbers(_ reader: any WarehouseReader) throws -> [String] {
        try reader.column("SELECT unit_number FROM asset WHERE unit_number IS NOT NULL ORDER BY \(reader.dialect.ascending("unit_number", text: true))")
    }

    /// SQL restricting `<alias>.unit_number` to `units` (all assets when nil or empty), with its arguments.
    public static func unitFilter(_ units: [String]?, alias: String = "a") -> (sql: String, arguments: [String]) {
        // `1 = 1`, not `1`: PostgreSQL's WHERE takes a truth value, not a number.
        guard let units, !units.isEmpty else { return ("1 = 1", []) }
        return ("\(alias).unit_number IN (\(Array(repeating: "?", count: units.count).joined(separator: ",")))", units)
    }
}
