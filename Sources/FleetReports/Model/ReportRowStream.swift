/// The rows of a table too long to hold in memory (a month of a million expense lines), read
/// again from the warehouse each time a renderer walks them.
///
/// A report that would otherwise materialise every detail row (about 0.5 KB each as
/// `[ReportValue]`, so 1 M rows took 1 GB with the HTML and JSON text on top) computes its totals
/// in one pass over a cursor and hands renderers this stream instead: CSV and JSON write row by
/// row, XLSX in libxlsxwriter's constant-memory mode, HTML shows the first rows only. Every walk
/// runs the same query in the same read transaction, so each format sees exactly the rows the
/// totals were computed from; the producer also checks that a full walk reproduces the count and
/// the totals it promised (`ReportRowStream.Error.changed`).
///
/// The stream reads through the `Database` of the read transaction the report ran in, so it is
/// only usable inside that transaction: `ReportWriter` renders inside it and closes the stream
/// when the transaction ends; a walk after that throws instead of touching a closed connection.
public final class ReportRowStream: @unchecked Sendable, Equatable {
    /// The number of rows a full walk yields.
    public let count: Int
    /// Walks the rows in order, the first `limit` of them when a limit is given.
    public typealias Producer = (_ limit: Int?, _ body: ([ReportValue]) throws -> Void) throws -> Void
    private let produce: Producer
    private var isOpen = true
    let table: String

    public enum Error: Swift.Error, CustomStringConvertible {
        case closed(table: String)
        case changed(table: String, detail: String)

        public var description: String {
            switch self {
            case let .closed(table):
                return "the rows of the table '\(table)' were read after the report's read transaction ended; render reports through ReportWriter"
            case let .changed(table, detail):
                return "the rows of the table '\(table)' no longer match the totals computed from them (\(detail)); run the report again"
            }
        }
    }

    public init(table: String, count: Int, produce: @escaping Producer) {
        self.table = table
        self.count = count
        self.produce = produce
    }

    /// Calls `body` with each row in order (the first `limit` rows when given).
    public func forEach(limit: Int? = nil, _ body: ([ReportValue]) throws -> Void) throws {
        guard isOpen else { throw Error.closed(table: table) }
        try produce(limit, body)
    }

    /// Called when the read transaction the rows come from ends.
    public func close() { isOpen = false }

    public static func == (a: ReportRowStream, b: ReportRowStream) -> Bool { a === b }
}
