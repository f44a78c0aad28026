import Foundation
import GRDB
import FleetCore

/// Reads the files of an import run ahead of their transactions, several at once: each file whose
/// importer is a `PrereadingImporter` (receipt images) is opened and pre-read on one of `workers`
/// threads, while `ImportSession.run` writes the files one transaction at a time, in order.
///
/// Why: reading a receipt photo is 0.3–3 s of OCR on one core and its transaction a few
/// milliseconds, so a folder of receipts read one after another used one core. The order, the
/// transactions and their outcomes stay those of a sequential run: only work that needs no
/// warehouse moves (`PrereadingImporter`), and every file is still written in its turn.
///
/// Memory stays bounded: at most `workers` files are being read at a time (each holds one decoded
/// image), and at most `ahead` files past the one being written are opened or done (each holds a
/// descriptor and its small reading) before a worker waits for the import to catch up.
final class ImportPrefetch: @unchecked Sendable {
    typealias Prepare = @Sendable (URL) -> PrereadFile?
    private enum Slot { case pending, done(PrereadFile?), taken }

    private let files: [URL?]
    private let ahead: Int
    private let prepare: Prepare
    private let condition = NSCondition()
    private var slots: [Slot]
    /// The next file a worker reads, and how many files the import has taken.
    private var next = 0, taken = 0
    private var stopped = false
    private let running = DispatchGroup()

    /// `files[i]` nil: the file is not to be read ahead (the walk already found a problem with it).
    init(files: [URL?], workers: Int, ahead: Int, prepare: @escaping Prepare) {
        self.files = files
        self.ahead = max(ahead, workers, 1)
        self.prepare = prepare
        slots = Array(repeating: .pending, count: files.count)
        for _ in 0..<max(1, min(workers, files.count)) {
            running.enter()
            let thread = Thread { [self] in
                defer { running.leave() }
                work()
            }
            thread.stackSize = 8 << 20   // Tesseract recurses deeply on some layouts (as OCRPool.map)
            thread.start()
        }
    }

    /// What was read ahead of file `index` (nil: the import reads it itself, as without
    /// prefetching), waiting for it if a worker is still at it. Called once per file, in order.
    func take(_ index: Int) -> PrereadFile? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if case let .done(file) = slots[index] {
                slots[index] = .taken
                taken = index + 1
                condition.broadcast()
                return file
            }
            condition.wait()
        }
    }

    /// Stops the workers after the files they are reading and waits for them: the run is over,
    /// or stopped on an error. Files read ahead and not taken are closed unread.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        running.wait()
        condition.lock()
        slots = slots.map { _ in .taken }
        condition.unlock()
    }

    private func work() {
        while let i = claim() {
            let file = files[i].flatMap(prepare)
            condition.lock()
            slots[i] = .done(file)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next file to read, once it is within `ahead` of the import; nil when all are claimed or the run stopped.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped, next < files.count {
            if next < taken + ahead {
                next += 1
                return next - 1
            }
            condition.wait()
        }
        return nil
    }
}

extension ImportSession {
    /// A prefetcher for `files` when some importer pre-reads and there is more than one file to
    /// overlap; nil otherwise (the run is then exactly the sequential one).
    func prefetch(_ files: [(URL, String?)], options: ImportOptions) -> ImportPrefetch? {
        let workers = importers.compactMap { ($0 as? any PrereadingImporter.Type)?.prereadWorkers }.max() ?? 0
        guard workers > 0, files.count > 1 else { return nil }
        let importers = self.importers, warehouse = self.warehouse
        return ImportPrefetch(files: files.map { $0.1 == nil ? $0.0 : nil }, workers: workers, ahead: 2 * workers) { url in
            Self.preread(url, options: options, importers: importers) { opened in
                // A file the warehouse already holds is found unchanged in its transaction without
                // being read: reading it here would make a re-import of a folder as slow as the first.
                func exists(_ sql: String, _ value: some DatabaseValueConvertible & Sendable) -> Bool {
                    (try? warehouse.pool.read { db in try Bool.fetchOne(db, sql: sql, arguments: [value]) ?? false }) ?? false
                }
                guard exists("SELECT EXISTS (SELECT 1 FROM source_file WHERE bytes = ?)", opened.size),
                      let sha = try? SHA256.hex(ofFile: opened.descriptorURL) else { return false }
                return exists("SELECT EXISTS (SELECT 1 FROM source_file WHERE sha256 = ?)", sha)
            }
        }
    }

    /// Opens `url` as `importFile` would and, when its importer pre-reads, pre-reads it. Nil for
    /// any file that is not such, or that fails before its importer would run (it cannot be
    /// opened, is empty, a spreadsheet, of no known format): `importFile` then does and reports
    /// all of that itself, the same as without prefetching.
    /// `stored(opened)`: whether the warehouse holds these bytes already (then nothing is pre-read).
    static func preread(_ url: URL, options: ImportOptions, importers: [any Importer.Type], stored: (OpenedFile) -> Bool = { _ in false }) -> PrereadFile? {
        guard let opened = try? OpenedFile(path: url.path), opened.size > 0, let head = try? opened.head(),
              SpreadsheetFile.kind(of: head) == nil,
              let importer = importerType(head: head, url: url, options: options, importers: importers),
              let prereading = importer as? any PrereadingImporter.Type, !stored(opened) else { return nil }
        var input = InputFile(url: url, head: head, zone: options.zone, currency: options.currency)
        input.source = opened.descriptorURL
        if let unit = options.asset { input.asset = AssetRef(unitNumber: unit) }
        return PrereadFile(opened: opened, head: head, importer: importer, reader: prereading.prepared(input))
    }

    /// The importer of a file: `--format`, or the one most confident about its first bytes.
    static func importerType(head: Data, url: URL, options: ImportOptions, importers: [any Importer.Type]) -> (any Importer.Type)? {
        if let name = options.format, let t = importers.first(where: { $0.format == name }) { return t }
        return ImporterRegistry.detect(head, filename: url.lastPathComponent, among: importers)
    }
}
