/// Fuel pumped from a bulk tank into an asset (`fuel-dispense`). Its cost is not in the file:
/// it is the tank's weighted-average cost at the dispense, derived (`TankCosting`).
public struct FuelDispense: Sendable, Equatable {
    public var sourceKey: String
    public var tank: String
    public var assetID: Int64?
    public var unitHint: String?
    public var at: Int64
    public var volumeMl: Double
    public var odometerM: Double?
    public var engineS: Double?
    public var product: String?
    public var sourceFileID: Int64

    public init(sourceKey: String, tank: String, assetID: Int64?, unitHint: String? = nil, at: Int64, volumeMl: Double,
                odometerM: Double? = nil, engineS: Double? = nil, product: String? = nil, sourceFileID: Int64) {
        self.sourceKey = sourceKey
        self.tank = tank
        self.assetID = assetID
        self.unitHint = unitHint
        self.at = at
        self.volumeMl = volumeMl
        self.odometerM = odometerM
        self.engineS = engineS
        self.product = product
        self.sourceFileID = sourceFileID
    }
}

extension FuelDispense: TabulatedRecord {
    public static let columnTable = ColumnTable<FuelDispense>("fuel_dispense", [
        .key("source_key") { $0.sourceKey },
        .value("tank") { $0.tank },
        .value("asset_id") { $0.assetID },
        .value("unit_hint") { $0.unitHint },
        .value("at") { $0.at },
        .value("volume_ml") { $0.volumeMl },
        .value("odometer_m") { $0.odometerM },
        .value("engine_s") { $0.engineS },
        .value("product") { $0.product },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid", "cost_minor": "derived by TankCosting", "cost_currency": "derived by TankCosting",
                    "cost_state": "derived by TankCosting"])
}
