import Foundation
import FleetCore
import FleetWarehouse

/// Fuel pumped from an on-site (bulk) tank into a vehicle or machine (`fuel-dispense.csv`, from
/// a site's pump controller or a fuel log): tank, asset, time, volume with its unit, and the
/// meter read at the pump (odometer or engine hours). The file carries no money: each dispense
/// is costed at its tank's weighted-average cost over the tank's deliveries (`fuel-delivery`;
/// docs/METRICS.md, "Bulk fuel").
///
/// The natural key `fuel_dispense.source_key`:
/// - `id:<TANK>|<dispense_id>` when the row has the controller's transaction id;
/// - otherwise `row:<time>|<TANK>|<unit or VIN>`: one pump fills one asset at one instant, so a
///   re-export that corrects the volume or meter restates the dispense instead of doubling it.
///   Two rows with that key in one file are a contradiction: the second is rejected
///   (`duplicate_key`).
public struct FuelDispenseImporter: Importer {
    public static let format = "fuel-dispense"
    public static let summary = "On-site (bulk) fuel dispensed from a tank into an asset: tank, asset, time, volume, odometer or engine hours (CSV)"
    public static let example = "fuel-dispense.csv"

    static let columns: [String: [String]] = [
        "dispense_id": ["transaction_id", "transaction_number", "dispense_number", "ticket", "ticket_number", "id"],
        "tank": ["tank_id", "tank_number", "tank_no", "tank_name", "storage_tank", "bulk_tank"],
        "unit_number": ["unit", "unit_no", "asset", "asset_number", "asset_no", "vehicle", "vehicle_number", "equipment", "equipment_number", "fleet_number"],
        "vin": ["vehicle_identification_number"],
        "date": ["dispense_date", "dispensed_at", "transaction_date", "date_time", "datetime", "timestamp"],
        "time": ["dispense_time", "transaction_time", "time_of_day"],
        "gallons": ["gal", "us_gallons", "volume_gal", "volume_gallons", "gallons_dispensed"],
        "litres": ["liters", "litre", "liter", "ltr", "volume_l", "volume_litres", "volume_liters", "litres_dispensed", "liters_dispensed"],
        "quantity": ["qty", "volume", "fuel_quantity", "fuel_volume"],
        "volume_unit": ["unit_of_measure", "uom", "quantity_unit", "volume_uom"],
        "odometer_km": ["odometer_kilometres", "odometer_kilometers"],
        "odometer_mi": ["odometer_miles"],
        "odometer": ["odometer_reading", "odo", "mileage"],
        "odometer_unit": ["odometer_uom", "distance_unit"],
        "engine_hours": ["hours", "engine_hrs", "hour_meter", "hour_meter_reading", "smr"],
        "product": ["fuel_type", "fuel_grade", "grade", "product_name"],
    ]
    static let required = ["tank", "date"]
    static let volumeSets = [["tank", "date", "gallons"], ["tank", "date", "litres"], ["tank", "date", "quantity"]]

    public init() {}

    /// A tank, a time and a volume, and no money or row kind (a delivery file has a cost, a
    /// file of tank dips a kind).
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let fields = CSVReader.firstRecord(head) else { return .no }
        let delivery = CSVHeader(fields, aliases: FuelDeliveryImporter.columns)
        guard delivery.index("cost") == nil, delivery.index("kind") == nil else { return .no }
        return CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, requiredAnyOf: volumeSets)
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        rows.salvage = BulkFuelRejects.dispense
        try rows.forEach(into: &sink) { row, sink in
            guard let tankText = row.text("tank") else { throw RowError(.missingField, "'tank' is empty; every dispense names the tank it was pumped from") }
            let tank = try Self.tankID(tankText)
            guard let at = try row.timestamp(date: "date", time: "time") else {
                throw RowError(.missingField, "'date' is empty; every dispense needs its time")
            }
            let volume = try Self.volume(row)
            let unit = row.text("unit_number")
            let vin = try row.vin("vin")
            guard unit != nil || vin != nil else {
                throw RowError(.missingField, "the row names no asset: fill 'unit_number' (or 'vin'); fuel pumped into nothing known cannot be costed to an asset")
            }
            let odometer = try row.metres(km: "odometer_km", mi: "odometer_mi", value: "odometer", unit: "odometer_unit")
            let engine = try row.double("engine_hours", min: 0, max: 1_000_000).map { $0 * Units.secondsPerHour }
            let key: String
            if let id = row.text("dispense_id") {
                key = BulkFuelRejects.dispenseKey(tank: tank, id: id)
                try row.unique(key, "dispense \(id) of tank \(tank)")
            } else {
                key = "row:\(Timestamp.iso(at))|\(tank)|\(unit?.uppercased() ?? vin!)"
                try RowHints.adding("if they really are two dispenses, add a transaction_id column so that they can be told apart") {
                    try row.unique(key, "a dispense from the same tank into the same asset at the same time")
                }
            }
            let assetID = try sink.asset(AssetRef(vin: vin, unitNumber: unit))
            try sink.load(FuelDispense(sourceKey: key, tank: tank, assetID: assetID, at: at, volumeMl: volume, odometerM: odometer,
                                       engineS: engine, product: row.text("product"), sourceFileID: sink.sourceFileID))
        }
    }

    /// A tank id as stored: trimmed, upper case, at most 64 printable characters.
    static func tankID(_ text: String) throws -> String {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard !t.isEmpty, t.count <= 64, !t.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw RowError(.badValue, "'tank' is '\(ControlText.escaped(text))'; a tank id is 1 to 64 printable characters")
        }
        return t
    }

    /// The row's volume in millilitres: from one of the volume columns (with its unit), above
    /// zero and at most 100,000 L (a road tanker's load; more is a typo, not a dispense).
    static func volume(_ row: Row) throws -> Double {
        guard let v = try FuelCardImporter.volume(row) else {
            throw RowError(.missingField, "the row has no volume: fill 'gallons', 'litres', or 'quantity' with 'volume_unit'")
        }
        guard v.millilitres > 0, v.millilitres <= maxMillilitres else {
            throw RowError(.outOfRange, "the volume is \(v.amount) \(v.unit); a dispense or delivery is above 0 and at most 100,000 L")
        }
        return v.millilitres
    }

    static let maxMillilitres = 100_000_000.0
}
