/// How an input names a vehicle or machine.
///
/// Inputs name assets in many ways: a Samsara vehicle id, a Deere principal id, a PIN, a VIN, a
/// unit number typed on a fuel card. Identity resolution (FleetWarehouse) turns a ref into one
/// asset, trusting identifiers in a fixed order: VIN or PIN, then a vendor id already linked,
/// then the unit number from master data. Hints such as `name` are never matched on; they only
/// fill in fields of an asset that is created or still lacks them.
public struct AssetRef: Hashable, Sendable, CustomStringConvertible {
    /// A vendor identifier: (`samsara`, `vehicle_id`, `281474976710656`).
    public struct Identifier: Hashable, Sendable {
        public var source: String
        public var type: String
        public var value: String
        public init(source: String, type: String, value: String) {
            self.source = source
            self.type = type
            self.value = value
        }
    }

    public enum Kind: String, Sendable, Codable, CaseIterable { case vehicle, equipment, trailer }

    public var identifiers: [Identifier] = []
    /// Normalised VIN (validated by the importer before it is set).
    public var vin: String?
    /// Normalised PIN or serial that the OEM guarantees unique.
    public var pin: String?
    /// A unit number from master data, a fuel card, a folder name or `--asset`.
    public var unitNumber: String?
    /// Hints: never matched on, used to fill empty fields.
    public var name: String?
    public var make: String?
    public var model: String?
    public var year: Int?
    public var kind: Kind?

    public init(identifiers: [Identifier] = [], vin: String? = nil, pin: String? = nil, unitNumber: String? = nil,
                name: String? = nil, make: String? = nil, model: String? = nil, year: Int? = nil, kind: Kind? = nil) {
        self.identifiers = identifiers
        self.vin = vin
        self.pin = pin
        self.unitNumber = unitNumber
        self.name = name
        self.make = make
        self.model = model
        self.year = year
        self.kind = kind
    }

    /// True when the ref names an asset at all.
    public var isResolvable: Bool { vin != nil || pin != nil || unitNumber != nil || !identifiers.isEmpty }

    public var description: String {
        if let unitNumber { return "unit \(unitNumber)" }
        if let vin { return "VIN \(vin)" }
        if let pin { return "PIN \(pin)" }
        if let id = identifiers.first { return "\(id.source) \(id.type) \(id.value)" }
        return "(no identity)"
    }
}
