/// The motor carrier whose records a DVIR report shows: the name, USDOT number and address an
/// auditor checks first (49 CFR 390.21 marks them on the vehicle; 396.11 reports belong to the
/// carrier). A warehouse setting (`WarehouseSettings`), read by reports.
public struct Carrier: Sendable, Equatable, Codable {
    public var name: String?
    /// The USDOT number: 1 to 8 digits.
    public var usdotNumber: String?
    public var address: String?

    public init(name: String? = nil, usdotNumber: String? = nil, address: String? = nil) {
        self.name = name
        self.usdotNumber = usdotNumber
        self.address = address
    }

    /// Whether `text` is a USDOT number: 1 to 8 ASCII digits.
    public static func isUSDOTNumber(_ text: String) -> Bool {
        (1...8).contains(text.count) && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }

    /// "Name, USDOT 1234567" as a page header shows it; "carrier not set" says loudly that
    /// `fleetkit init --carrier-name` was never given.
    public var line: String {
        let parts = [name, usdotNumber.map { "USDOT \($0)" }].compactMap { $0 }
        return parts.isEmpty ? "carrier not set (fleetkit init --carrier-name NAME --usdot NUMBER)" : parts.joined(separator: ", ")
    }
}
