import Foundation
import FleetCore
import FleetWarehouse

/// Master data: the fleet's vehicles, machines and trailers (`assets.csv`).
///
/// The unit number is the asset's name in reports. VIN and PIN link it to telematics data;
/// vendor id columns (`samsara_id`, `deere_principal_id`, `deere_equipment_id`, and the ISO
/// feed's `vendor_serial` and `telematics_id`, MyGeotab's `geotab_id`) link it to a vendor's own ids, merging any asset that telematics created before master data arrived.
/// The licence plate is linked the same way (`registration`/`license_plate`), for files that
/// name a vehicle only by its plate.
public struct AssetsImporter: Importer {
    public static let format = "assets"
    public static let summary = "Master data: vehicles, machines and trailers with VIN/PIN, group, cost centre and vendor ids (CSV)"
    public static let example = "assets.csv"

    static let columns: [String: [String]] = [
        "unit_number": ["unit", "unit_no", "unit #", "asset_number", "asset_no", "fleet_number", "vehicle_number", "registration_number"],
        "kind": ["type", "asset_type", "asset_kind"],
        "name": ["asset_name", "display_name", "description"],
        "vin": ["vehicle_identification_number"],
        "pin": ["product_identification_number", "serial_number", "machine_serial"],
        "make": ["manufacturer", "oem", "oem_name"],
        "model": [],
        "year": ["model_year"],
        "fuel_type": ["fuel"],
        "license_plate": ["plate", "licence_plate", "registration"],
        "cost_center": ["cost_centre", "cost_center_code"],
        "department": ["dept"],
        "asset_group": ["group", "fleet_group"],
        "in_service_date": ["in_service", "acquisition_date", "purchase_date"],
        "retired_date": ["retired", "disposal_date", "out_of_service_date"],
        "acquisition_cost": ["purchase_price", "acquisition_cost_amount"],
        "currency": [],
        "target_hours_per_week": ["target_hours", "target_weekly_hours"],
        "tank_capacity_l": ["tank_capacity_litres", "tank_capacity_liters", "tank_l", "tank_litres", "tank_liters", "fuel_tank_l", "fuel_capacity_l"],
        "tank_capacity_gal": ["tank_capacity_gallons", "tank_gal", "tank_gallons", "fuel_tank_gal", "fuel_capacity_gal"],
        "cdl_class": ["cdl_class_required", "license_class_required", "licence_class_required", "required_cdl_class", "cdl_required", "vehicle_group"],
        "samsara_id": ["samsara_vehicle_id"],
        "deere_principal_id": ["jdlink_principal_id"],
        "deere_equipment_id": ["jdlink_equipment_id"],
        "vendor_serial": ["telematics_serial", "telematics_unit_serial", "aemp_serial_number", "iso_serial_number"],
        "telematics_id": ["iso_machine_id", "aemp_machine_id", "telematics_machine_id"],
        "geotab_id": ["geotab_device_id"],
        "traccar_id": ["traccar_device_id"],
        "motive_id": ["motive_vehicle_id", "keeptruckin_id"],
    ]
    static let required = ["unit_number"]

    static let kinds: [String: [String]] = [
        "vehicle": ["truck", "car", "van", "pickup", "tractor unit", "road vehicle"],
        "equipment": ["machine", "heavy equipment", "excavator", "loader", "dozer", "grader", "crane", "forklift"],
        "trailer": ["semi trailer", "semi-trailer"],
    ]
    static let fuels: [String: [String]] = [
        "diesel": [], "petrol": ["gasoline", "gas", "unleaded"], "electric": ["ev", "bev"], "hybrid": ["phev", "hev"],
        "cng": [], "lpg": ["propane"], "flex": ["flex-fuel", "flex fuel", "flexfuel", "ffv", "e85"],
        "bifuel": ["bi-fuel", "dual-fuel", "dual fuel", "two-tank", "two tank"],
    ]

    /// The CDL class a vehicle needs (49 CFR 383.91(a)); `none` for one that needs no CDL.
    static let cdlClasses: [String: [String]] = [
        "A": ["class a", "cdl a", "group a"], "B": ["class b", "cdl b", "group b"], "C": ["class c", "cdl c", "group c"],
        "none": ["no cdl", "non-cdl", "non cdl", "not required", "no"],
    ]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        max(CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required + ["make"]),
            CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required + ["vin"]))
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        try Self.load(&rows, into: &sink)
    }

    /// The rows of `assets.csv`, or of a file a profile put in its columns (`ProfileNativeRows`).
    static func load(_ rows: inout CSVRows, into sink: inout some RecordSink) throws {
        try rows.forEach(into: &sink) { row, sink in
            let unit = try row.required("unit_number")
            try row.unique("unit:" + unit.uppercased(), "unit \(unit)")
            var identifiers: [AssetRef.Identifier] = []
            if let id = row.text("samsara_id") { identifiers.append(.init(source: "samsara", type: "vehicle_id", value: id)) }
            if let id = row.text("deere_principal_id") { identifiers.append(.init(source: "deere", type: "principal_id", value: id)) }
            if let id = row.text("deere_equipment_id") { identifiers.append(.init(source: "deere", type: "equipment_id", value: id)) }
            // The SerialNumber and the machine id of an ISO 15143-3 / AEMP feed, exactly as the feed
            // sends them (only surrounding spaces trimmed): how master data claims a machine
            // that the feed sends without a PIN.
            if let id = row.text("vendor_serial") { identifiers.append(.init(source: "iso15143", type: "serial_number", value: id)) }
            if let id = row.text("telematics_id") { identifiers.append(.init(source: "iso15143", type: "machine_id", value: id)) }
            if let id = row.text("geotab_id") { identifiers.append(.init(source: "geotab", type: "device_id", value: id)) }
            if let id = row.text("traccar_id") { identifiers.append(.init(source: "traccar", type: "device_id", value: id)) }
            if let id = row.text("motive_id") { identifiers.append(.init(source: "motive", type: "vehicle_id", value: id)) }
            // The plate as an identifier, so that a profiled file naming vehicles only by plate
            // (a toll or card statement) finds this asset, imported before or after it.
            if let plate = row.text("license_plate").map(Self.plateKey), !plate.isEmpty { identifiers.append(Self.plateIdentifier(plate)) }
            let vin = try row.vin("vin")
            let pin = row.text("pin").map(PIN.normalise)
            let kind = try row.choice("kind", Self.kinds) ?? (pin != nil && vin == nil ? "equipment" : "vehicle")
            let currency = try row.currencyCode()
            let inService = try row.date("in_service_date")
            let retired = try row.date("retired_date")
            if let a = inService, let b = retired, b < a {
                throw RowError(.badValue, "retired_date \(b) is before in_service_date \(a)")
            }
            let tank = try Self.tankCapacity(row)
            let fields = Asset(unitNumber: unit, kind: kind, name: row.text("name"), vin: vin, pin: pin,
                               make: row.text("make"), model: row.text("model"), year: try row.int("year", min: 1900, max: 2100),
                               fuelType: try row.choice("fuel_type", Self.fuels), licensePlate: row.text("license_plate"),
                               costCenter: row.text("cost_center"), department: row.text("department"), assetGroup: row.text("asset_group"),
                               inServiceDate: inService?.description, retiredDate: retired?.description,
                               acquisitionCostMinor: try row.money("acquisition_cost", currency: currency),
                               currency: row.text("acquisition_cost") == nil ? nil : currency,
                               targetHoursPerWeek: try row.double("target_hours_per_week", min: 0, max: 168),
                               tankCapacityMl: tank, cdlClass: try row.choice("cdl_class", Self.cdlClasses), autoCreated: false)
            let ref = AssetRef(identifiers: identifiers, vin: vin, pin: pin, unitNumber: unit, kind: AssetRef.Kind(rawValue: kind))
            _ = try sink.defineAsset(ref, fields: fields)
        }
    }
}

extension AssetsImporter {
    /// A licence plate as the key it is matched on: letters and digits only, upper case
    /// (`abc-123`, `ABC 123` and `ABC123` are one plate).
    static func plateKey(_ text: String) -> String {
        String(text.uppercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    static func plateIdentifier(_ key: String) -> AssetRef.Identifier {
        AssetRef.Identifier(source: "registration", type: "license_plate", value: key)
    }

    /// The fuel tank's capacity in millilitres from `tank_capacity_l` (litres) or
    /// `tank_capacity_gal` (US gallons); both filled must agree within 0.5 %. Above 0 and at most
    /// 20 000 L (a mining hauler's tank is about 5 000 L): anything else is a typo.
    static func tankCapacity(_ row: Row) throws -> Double? {
        let litres = try row.double("tank_capacity_l", min: 0, max: 20_000).map { $0 * Units.millilitresPerLitre }
        let gallons = try row.double("tank_capacity_gal", min: 0, max: 20_000 / 3.785411784).map { $0 * Units.millilitresPerUSGallon }
        if let l = litres, let g = gallons, abs(l - g) > 0.005 * max(l, g) {
            throw RowError(.badValue, "'tank_capacity_l' and 'tank_capacity_gal' disagree (\(l / 1000) L is not \(g / Units.millilitresPerUSGallon) gal); keep one")
        }
        guard let ml = litres ?? gallons else { return nil }
        guard ml > 0 else { throw RowError(.outOfRange, "the tank capacity is 0; leave it empty when it is not known") }
        return ml
    }
}
