import Foundation
import FleetCore
import FleetWarehouse
import FleetImport

/// Imports one file of a nightly run, in one transaction, and says how it went.
///
/// WHY a protocol: the nightly job must survive a crash of any C library a file's import goes
/// through (libxml2, Tesseract, Leptonica, SQLite): a signal in the job's own process would end
/// the whole run, every night, and no later file would ever be imported. The `fleetkit` command
/// therefore injects a runner that imports each file in a child process and turns a child's
/// death into a failed outcome; FleetNightly is a library and must not know the command line,
/// so it only sees this protocol. Library tests use `InProcessImportRunner`.
public protocol FileImportRunner {
    /// - returns: the file's outcome; a crashed, killed or timed-out import is a `.failed`
    ///   outcome whose error names what happened, so the job quarantines the file and goes on.
    /// - throws: only when the warehouse itself cannot be written (full disk, I/O error,
    ///   read-only, locked): no later file could succeed, so the run stops and the file stays in
    ///   the inbox for the next run.
    func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome

    /// The format the start of the file names (`format` nil when no importer recognises it),
    /// read where the import would run: the job orders the night's files by format (master data
    /// first), and reading even a file's first bytes is input that may crash the reader (a Swift
    /// trap or a library's signal) — in the child process, that costs the file, not the run.
    /// - returns: `.failed(reason)` when the reader died or hung; the job quarantines the file.
    func detectFormat(_ url: URL, request: FileImportRequest) throws -> FormatDetection
}

/// What reading the start of a file said about its format.
public enum FormatDetection: Equatable, Sendable {
    case format(String?)
    case failed(String)
}

extension FileImportRunner {
    /// In this process: what library tests and trusted callers use.
    public func detectFormat(_ url: URL, request: FileImportRequest) throws -> FormatDetection {
        .format(request.detect().detected?.format)
    }
}

/// Everything one file's import needs, as a value a child process can receive as JSON.
public struct FileImportRequest: Codable, Sendable, Equatable {
    public var path: String
    public var warehouse: String
    public var runID: Int64
    public var timezone: String
    public var currency: String
    public var trips: TripRules
    public var attributeByFolder: Bool
    /// What the inbox listing saw of the file; the import is rolled back and the file skipped
    /// (`FileOutcome.changedWhileRead`) when the opened descriptor is not that file any more.
    public var expected: Expected? = nil
    /// Only read the start of the file and say which format it is (`FileImportReply.detected`);
    /// nothing is imported.
    public var detectOnly: Bool? = nil

    /// Size, modification time (nanoseconds since 1970) and identity of a listed file.
    public struct Expected: Codable, Sendable, Equatable {
        public var size: Int64
        public var mtime: Int64
        public var device: UInt64
        public var inode: UInt64
        public init(size: Int64, mtime: Int64, device: UInt64, inode: UInt64) {
            self.size = size
            self.mtime = mtime
            self.device = device
            self.inode = inode
        }
    }

    public init(path: String, warehouse: String, runID: Int64, timezone: String, currency: String, trips: TripRules, attributeByFolder: Bool) {
        self.path = path
        self.warehouse = warehouse
        self.runID = runID
        self.timezone = timezone
        self.currency = currency
        self.trips = trips
        self.attributeByFolder = attributeByFolder
    }

    enum CodingKeys: String, CodingKey {
        case path, warehouse, timezone, currency, trips, expected
        case detectOnly = "detect_only"
        case runID = "run_id", attributeByFolder = "attribute_by_folder"
    }

    /// The import options these values stand for.
    public func options() throws -> ImportOptions {
        guard let zone = FleetZone(identifier: timezone) else {
            throw FleetError.invalidArgument(name: "timezone", value: timezone, hint: "use an IANA name such as America/Chicago")
        }
        var options = ImportOptions(zone: zone, currency: currency)
        options.trips = trips
        options.attributeByFolder = attributeByFolder
        // A file that would restate a closed month is refused and quarantined, never applied
        // unattended (`allowRestatement` stays false).
        options.actor = "fleetkit nightly (\(UserName.current))"
        // The job stored these as the warehouse's settings before importing: a later change is
        // caught in each file's transaction.
        options.settingsFromWarehouse = true
        return options
    }

    /// Reads the start of the file and names its format, as `ImportSession` would detect it.
    /// A file that cannot be opened has no format here; its import then says why.
    public func detect(among importers: [any Importer.Type] = ImporterRegistry.all) -> FileImportReply {
        let url = URL(fileURLWithPath: path)
        guard let head = try? OpenedFile(path: path).head() else { return FileImportReply(detected: .init(format: nil)) }
        return FileImportReply(detected: .init(format: ImporterRegistry.detect(head, filename: url.lastPathComponent, among: importers)?.format))
    }

    /// Imports the file in this process: what the child process runs, and what library tests use.
    public func run(in session: ImportSession) throws -> FileImportReply {
        do {
            let expected = self.expected
            return FileImportReply(outcome: try session.importFile(URL(fileURLWithPath: path), options: try options(), runID: runID, expect: { opened in
                expected.flatMap { opened.differs(size: $0.size, mtimeNanoseconds: $0.mtime, device: $0.device, inode: $0.inode) }
            }))
        } catch {
            // Only warehouse failures escape `importFile`; they stop the run.
            return FileImportReply(stopped: String(describing: error))
        }
    }
}

/// What one file's import reports back: its outcome, or why the whole run must stop.
public struct FileImportReply: Codable, Sendable, Equatable {
    public var outcome: FileOutcome?
    /// Set when the warehouse cannot be written: the message names the real cause and the fix.
    public var stopped: String?
    /// The answer to a `detectOnly` request.
    public var detected: Detected?

    /// The format detected (nil: none recognised the file).
    public struct Detected: Codable, Sendable, Equatable {
        public var format: String?
        public init(format: String?) { self.format = format }
    }

    public init(outcome: FileOutcome? = nil, stopped: String? = nil, detected: Detected? = nil) {
        self.outcome = outcome
        self.stopped = stopped
        self.detected = detected
    }
}

/// The warehouse failed while a file was imported (full disk, I/O error, read-only, locked).
/// The file's transaction was rolled back and the file left in the inbox.
public struct FileImportStopped: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }
    public var description: String {
        "\(message) (while importing \(file); it stays in the inbox and the next run imports it)"
    }
}

/// Imports in the calling process: no isolation from crashes, no startup cost. For library
/// tests and for callers that trust their input.
public struct InProcessImportRunner: FileImportRunner {
    public let session: ImportSession
    public init(session: ImportSession) { self.session = session }

    public func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
        let reply = try request.run(in: session)
        if let stopped = reply.stopped { throw FileImportStopped(file: url.path, message: stopped) }
        return reply.outcome!
    }
}
