/// Errors that stop a whole file or a whole command. Row-level problems are `Issue`s instead.
///
/// Each case carries what went wrong, where, and what the user can do, because a nightly job's
/// operator reads these in a log with no other context.
public enum FleetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read as the format at all (truncated, not that format, wrong encoding).
    case unreadable(file: String, location: String?, reason: String, hint: String)
    /// No importer recognised the file's content.
    case unknownFormat(file: String, hint: String)
    /// The file has no data at all.
    case emptyFile(file: String)
    /// An I/O problem with a path.
    case io(path: String, reason: String)
    /// The warehouse cannot be opened, migrated or written.
    case warehouse(path: String, reason: String, hint: String)
    /// A command-line or configuration value is wrong.
    case invalidArgument(name: String, value: String, hint: String)
    /// Identity resolution found no asset for a file that needs one.
    case unattributed(file: String, hint: String)

    public var description: String {
        switch self {
        case let .unreadable(file, location, reason, hint):
            let at = location.map { " at \($0)" } ?? ""
            return "\(file)\(at): \(QuotedText.cut(reason, limit: 2000)). \(QuotedText.cut(hint, limit: 2000))"
        case let .unknownFormat(file, hint):
            return "\(file): the format was not recognised. \(hint)"
        case let .emptyFile(file):
            return "\(file): the file is empty; there is nothing to import. Check that the export finished writing."
        case let .io(path, reason):
            return "\(path): \(QuotedText.cut(reason, limit: 2000))"
        case let .warehouse(path, reason, hint):
            return "warehouse \(path): \(QuotedText.cut(reason, limit: 2000)). \(QuotedText.cut(hint, limit: 2000))"
        case let .invalidArgument(name, value, hint):
            // The value is input: quoted cut (QuotedText), as is a hint that quotes it again.
            return "invalid \(QuotedText.cut(name)) '\(QuotedText.cut(value))': \(QuotedText.cut(hint, limit: 2000))"
        case let .unattributed(file, hint):
            return "\(file): no asset could be attributed. \(hint)"
        }
    }
}
