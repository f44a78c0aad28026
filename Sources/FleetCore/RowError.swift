/// A problem with one input row, thrown by code that does not know where the row came from
/// (identity resolution, value parsing). The importer's row loop adds the location and raw text
/// and turns it into a `reject`.
public struct RowError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: Issue.Reason
    public var message: String

    public init(_ reason: Issue.Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason.rawValue): \(message)" }

    public func issue(at location: String, raw: String) -> Issue {
        Issue(reason, at: location, message, raw: raw)
    }
}
