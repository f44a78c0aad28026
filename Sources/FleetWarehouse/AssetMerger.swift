import GRDB
import FleetCore

/// Merges two assets that a file proved to be one (a master-data row that links a Samsara id to
/// a VIN, a Deere equipment list that links a principal id to a PIN).
///
/// Every row that names the loser moves to the survivor. Where both assets have a row with the
/// same natural key (the same meter at the same instant), the survivor's row is kept and the
/// loser's is dropped, since both describe the same event. Empty fields of the survivor are
/// filled from the loser; the loser is then deleted.
enum AssetMerger {
    static func merge(_ loser: Int64, into survivor: Int64, in db: Database) throws {
        guard let a = try Asset.fetchOne(db, key: survivor), let b = try Asset.fetchOne(db, key: loser) else { return }
        let fromMaster = try Bool.fetchAll(db, sql: "SELECT name_from_master = 1 FROM asset WHERE id IN (?, ?) ORDER BY id = ?",
                                           arguments: [survivor, loser, loser])
        func conflict(_ what: String, _ x: String?, _ y: String?) throws {
            if let x, let y, x != y {
                throw RowError(.identityConflict, "this row links two different assets (\(what) \(x) and \(what) \(y)); fix the identifiers in the master data")
            }
        }
        try conflict("VIN", a.vin, b.vin)
        try conflict("PIN", a.pin, b.pin)
        try conflict("unit", a.unitNumber, b.unitNumber)
        for table in WarehouseMigrator.assetTables {
            try db.execute(sql: "UPDATE OR IGNORE \(table) SET asset_id = ? WHERE asset_id = ?", arguments: [survivor, loser])
            try db.execute(sql: "DELETE FROM \(table) WHERE asset_id = ?", arguments: [loser])
        }
        try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [loser])
        var merged = a
        merged.unitNumber = a.unitNumber ?? b.unitNumber
        // Master data's name, else the smaller feed name (`AssetNaming`): not the survivor's by id.
        let (aMaster, bMaster) = (fromMaster.first ?? false, fromMaster.last ?? false)
        if aMaster { merged.name = a.name ?? b.name } else if bMaster { merged.name = b.name ?? a.name } else {
            merged.name = AssetNaming.feedName(b.name, over: a.name, storedFromMaster: false)
        }
        merged.vin = a.vin ?? b.vin
        merged.pin = a.pin ?? b.pin
        merged.make = a.make ?? b.make
        merged.model = a.model ?? b.model
        merged.year = a.year ?? b.year
        merged.fuelType = a.fuelType ?? b.fuelType
        merged.licensePlate = a.licensePlate ?? b.licensePlate
        merged.costCenter = a.costCenter ?? b.costCenter
        merged.department = a.department ?? b.department
        merged.assetGroup = a.assetGroup ?? b.assetGroup
        merged.inServiceDate = a.inServiceDate ?? b.inServiceDate
        merged.retiredDate = a.retiredDate ?? b.retiredDate
        merged.acquisitionCostMinor = a.acquisitionCostMinor ?? b.acquisitionCostMinor
        merged.currency = a.currency ?? b.currency
        merged.targetHoursPerWeek = a.targetHoursPerWeek ?? b.targetHoursPerWeek
        merged.tankCapacityMl = a.tankCapacityMl ?? b.tankCapacityMl
        merged.cdlClass = a.cdlClass ?? b.cdlClass
        merged.autoCreated = a.autoCreated && b.autoCreated
        if a.autoCreated, !b.autoCreated { merged.kind = b.kind }
        try Asset.writtenColumns.update(merged, id: survivor, in: db)
        if aMaster || bMaster {
            try db.execute(sql: "UPDATE asset SET name_from_master = 1 WHERE id = ?", arguments: [survivor])
        }
    }
}
