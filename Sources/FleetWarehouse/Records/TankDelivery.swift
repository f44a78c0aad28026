/// Fuel delivered into a bulk tank and what it cost (`fuel-delivery`): the cost side of the
/// tank's weighted average (docs/METRICS.md, "Bulk fuel").
public struct TankDelivery: Sendable, Equatable {
    public var sourceKey: String
    /// The tank's id as the site writes it, folded to upper case.
    public var tank: String
    public var at: Int64
    public var volumeMl: Double
    /// What the delivery cost, tax included, in minor units of `currency`.
    public var costMinor: Int64
    public var currency: String
    public var currencyAssumed: Bool
    public var supplier: String?
    public var invoice: String?
    public var sourceFileID: Int64

    public init(sourceKey: String, tank: String, at: Int64, volumeMl: Double, costMinor: Int64, currency: String, currencyAssumed: Bool = false,
                supplier: String? = nil, invoice: String? = nil, sourceFileID: Int64) {
        self.sourceKey = sourceKey
        self.tank = tank
        self.at = at
        self.volumeMl = volumeMl
        self.costMinor = costMinor
        self.currency = currency
        self.currencyAssumed = currencyAssumed
        self.supplier = supplier
        self.invoice = invoice
        self.sourceFileID = sourceFileID
    }
}

extension TankDelivery: TabulatedRecord {
    public static let columnTable = ColumnTable<TankDelivery>("tank_delivery", [
        .key("source_key") { $0.sourceKey },
        .value("tank") { $0.tank },
        .value("at") { $0.at },
        .value("volume_ml") { $0.volumeMl },
        .value("cost_minor") { $0.costMinor },
        .value("currency") { $0.currency },
        .value("currency_assumed") { $0.currencyAssumed },
        .value("supplier") { $0.supplier },
        .value("invoice") { $0.invoice },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
