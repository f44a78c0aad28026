/// How an input names a driver: a vendor id, an employee id, or a licence number. Names are
/// hints only, since two drivers can share one.
public struct DriverRef: Hashable, Sendable {
    public var identifiers: [AssetRef.Identifier]
    public var employeeID: String?
    public var licenseNumber: String?
    public var name: String?

    public init(identifiers: [AssetRef.Identifier] = [], employeeID: String? = nil, licenseNumber: String? = nil, name: String? = nil) {
        self.identifiers = identifiers
        self.employeeID = employeeID
        self.licenseNumber = licenseNumber
        self.name = name
    }

    public var isResolvable: Bool { employeeID != nil || licenseNumber != nil || !identifiers.isEmpty }
}
