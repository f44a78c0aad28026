/// A stored setting that cannot be used: which key, what is stored, why, and the command that
/// sets it again.
///
/// WHY an error and not the default: a fleet zone or trip rule read wrong changes every daily
/// bucket or trip without a word; the documented default is used only when a key was never
/// stored.
public struct WarehouseSettingsError: Error, CustomStringConvertible, Sendable, Equatable {
    public var key: String
    public var value: String
    public var reason: String
    public var hint: String

    public init(key: String, value: String, reason: String, hint: String) {
        self.key = key
        self.value = value
        self.reason = reason
        self.hint = hint
    }

    /// What is wrong, without the hint.
    public var statement: String {
        let shown = value.count > 200 ? String(value.prefix(200)) + "…" : value
        return "the warehouse setting '\(key)' is '\(shown)', which \(reason)"
    }

    public var description: String { "\(statement). \(hint)" }
}
