import FleetCore
import FleetWarehouse

/// A reader of a saved REST API response: one page object, or a JSON array of pages (what a
/// user gets by saving each page of a paginated endpoint and joining them). Samsara and the
/// Deere Operations Center both save this way; only what a page holds differs, so the walk over
/// the pages, its errors and the end-of-document check live here once.
protocol SavedPagesReader: AnyObject {
    associatedtype Sink: RecordSink
    var parser: JSONPullParser { get set }
    /// Reads one page whose `{` has just been read, up to and including its `}`; `prefix` is
    /// the page's place in the file for reject locations (`""` or `"[3]."`).
    func page(prefix: String, into sink: inout Sink) throws
}

extension SavedPagesReader {
    /// Walks every page. `members` names what a page holds (for the error on an array of
    /// something else); `notAResponse` says what this vendor's response looks like.
    func walkPages(into sink: inout Sink, members: String, notAResponse: String) throws {
        switch try parser.next() {
        case .objectStart?:
            try page(prefix: "", into: &sink)
        case .arrayStart?:
            var p = 0
            while try parser.peek() != .arrayEnd {
                guard try parser.next() == .objectStart else {
                    throw parser.fail("a top-level array must hold saved pages (objects with \(members))")
                }
                try page(prefix: "[\(p)].", into: &sink)
                p += 1
            }
            _ = try parser.next()
        default:
            throw parser.fail(notAResponse)
        }
        guard try parser.next() == nil else { throw parser.fail("unexpected data after the end of the document") }
    }
}
