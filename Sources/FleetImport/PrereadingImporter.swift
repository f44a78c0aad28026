import Foundation
import FleetCore
import FleetWarehouse

/// An importer whose costly work on a file needs no warehouse (reading a receipt image with OCR),
/// so that work can run before the file's transaction, on another thread. `ImportSession.run`
/// reads up to `prereadWorkers` such files at once ahead of the one being written (`ImportPrefetch`),
/// while the warehouse writes stay one transaction per file, in file order: the rows, rejects and
/// outcomes are those of reading the files one after another.
///
/// `preread` sees the file as the import will (`InputFile.source` is the descriptor that was
/// checked), but before its transaction: the asset from the file's folder is not known yet, and
/// nothing of the warehouse may be consulted. What it throws is thrown again by
/// `read(_:reading:into:)` inside the transaction, so a file that cannot be read fails exactly as
/// it would have without the pre-reading.
public protocol PrereadingImporter: Importer {
    associatedtype Reading: Sendable
    /// How many files may be pre-read at once. Each holds one file's working memory (a decoded
    /// image) until its reading is done, so this also bounds the memory of a folder import.
    static var prereadWorkers: Int { get }
    /// The warehouse-free part of reading `input`; safe to call from any thread.
    static func preread(_ input: InputFile) throws -> Reading
    /// Sends what `preread` found to the sink, in the file's transaction.
    func read(_ input: InputFile, reading: Reading, into sink: inout some RecordSink) throws
}

extension PrereadingImporter {
    /// Reading one file on its own (the nightly job's `import-one`, a single file): both parts in turn.
    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try read(input, reading: Self.preread(input), into: &sink)
    }

    /// `preread` run now, its outcome kept for the transaction: what throws there throws then.
    static func prepared(_ input: InputFile) -> PrereadFile.Reader {
        let reading = Result { try preread(input) }
        return { input, sink in try Self().read(input, reading: reading.get(), into: &sink) }
    }
}

/// A file opened and pre-read ahead of its transaction (`ImportPrefetch`): the descriptor that was
/// checked, its first bytes, the importer, and what the importer read, to be sent to the sink.
final class PrereadFile: @unchecked Sendable {
    typealias Reader = (InputFile, inout WarehouseSink) throws -> Void
    let opened: OpenedFile
    let head: Data
    let importer: any Importer.Type
    let reader: Reader

    init(opened: OpenedFile, head: Data, importer: any Importer.Type, reader: @escaping Reader) {
        self.opened = opened
        self.head = head
        self.importer = importer
        self.reader = reader
    }
}
