/// What `WarehouseSettings.apply` changed: the nightly job records it in its run result, so a
/// night whose trips all moved says why.
public struct SettingsChange: Codable, Sendable, Equatable {
    /// Keys whose stored value changed (or replaced an unusable one).
    public var changed: [WarehouseSettings.Key] = []
    /// Assets whose derived tables were rebuilt: all of them after a zone or trip-rule change, else 0.
    public var rederivedAssets = 0

    public init() {}

    public var isEmpty: Bool { changed.isEmpty }

    enum CodingKeys: String, CodingKey {
        case changed
        case rederivedAssets = "rederived_assets"
    }
}
