import Foundation
import FleetCore
import FleetWarehouse

/// One input format. There is one file per format, and its file name, type name and `--format`
/// name are the same word.
///
/// Importers stream: memory stays bounded whatever the file size. They send rows to the sink and
/// turn every row they cannot use into a reject; they throw only when the file as a whole cannot
/// be read, and then the file's transaction is rolled back and nothing of it remains.
public protocol Importer: Sendable {
    /// The `--format` name.
    static var format: String { get }
    /// One line for `fleetkit formats`: what the format is.
    static var summary: String { get }
    /// An example file name.
    static var example: String { get }
    /// How sure the importer is that a file is its format, from the first bytes and the name.
    static func sniff(_ head: Data, filename: String) -> Confidence
    init()
    func read(_ input: InputFile, into sink: inout some RecordSink) throws
}

/// How sure an importer is that it can read a file, 0–100. Named levels for the usual cases;
/// the values between them let two importers that both recognise a file be told apart (the
/// one that knows more of its columns wins).
public struct Confidence: Comparable, Sendable, CustomStringConvertible {
    public var value: Int
    public init(_ value: Int) { self.value = min(max(value, 0), 100) }

    public static let no = Confidence(0)
    public static let low = Confidence(25)
    public static let medium = Confidence(50)
    public static let high = Confidence(75)
    public static let certain = Confidence(100)

    public static func < (a: Confidence, b: Confidence) -> Bool { a.value < b.value }
    public var description: String { String(value) }
}

/// A file to import, with what the command line and configuration say about it.
public struct InputFile: Sendable {
    /// The file's name: for messages, folder attribution and provenance.
    public var url: URL
    /// What readers open: `ImportSession` sets the descriptor it checked (`/proc/self/fd/N`,
    /// `OpenedFile`), so what is read is the regular file that was checked, even if the path
    /// names something else (a FIFO) by then. Equal to `url` elsewhere.
    public var source: URL
    /// The first bytes (64 KiB at most), already read for sniffing.
    public var head: Data
    /// The asset for files without built-in identity: `--asset`, or the folder the file is in.
    public var asset: AssetRef?
    /// The fleet time zone, for sources that write local times without an offset.
    public var zone: FleetZone
    /// The base currency, for amounts whose row names none.
    public var currency: String
    /// Set when the file is an `.xlsx` workbook: the sheet its rows come from (`RecordSources`).
    public var sheet: WorkbookSheet?

    public init(url: URL, head: Data, asset: AssetRef? = nil, zone: FleetZone = .utc, currency: String = "USD") {
        self.url = url
        self.source = url
        self.head = head
        self.asset = asset
        self.zone = zone
        self.currency = currency
    }

    public var path: String { url.path }
    public var name: String { url.lastPathComponent }

    public static let headLength = 64 * 1024
}

/// The sheet of a workbook that is read: the one named (`--sheet`), or the first when nil.
public struct WorkbookSheet: Sendable, Equatable {
    public var name: String?
    public init(name: String? = nil) { self.name = name }
}
