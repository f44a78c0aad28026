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

/// The two ways a saved response cannot be read at all, worded once for every vendor: a member
/// over the reader's size limit, and JSON that is damaged or cut short. Either fails the whole
/// file (its transaction is rolled back), and the message says what to do.
enum SavedResponse {
    /// Runs `body`, turning JSON errors into a `FleetError` naming `response` (e.g. "a Samsara
    /// response").
    static func reading(_ input: InputFile, response: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let e as JSONNodeTooLarge {
            throw FleetError.unreadable(file: input.path, location: "byte \(e.offset) (\(e.path))", reason: "the member is larger than \(e.limit) bytes",
                                        hint: "Nothing from this file was imported; this is not \(response) FleetKit reads.")
        } catch let e as JSONReadError {
            throw FleetError.unreadable(file: input.path, location: e.location, reason: e.message,
                                        hint: "Nothing from this file was imported: a truncated or damaged file is never read in part. Save the API response again, completely; if the file is not \(response), import it with the right --format.")
        }
    }
}
