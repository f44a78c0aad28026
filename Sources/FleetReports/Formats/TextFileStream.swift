import Foundation

/// Text written to a file in chunks of about 1 MiB, so a renderer's memory does not grow with
/// the report: a million-row CSV or JSON used to be built as one String (hundreds of MB) before
/// a single byte reached the disk.
final class TextFileStream {
    private let handle: FileHandle
    private var buffer = ""
    static let chunk = 1 << 20

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    func write(_ text: String) throws {
        buffer += text
        if buffer.utf8.count >= Self.chunk { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: Data(buffer.utf8))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; the caller renames the file into place.
    func close() throws {
        try flush()
        try handle.close()
    }

    /// Produces `destination` atomically (`AtomicFile.produce`) from text written by `body`.
    static func produce(_ destination: URL, _ body: (TextFileStream) throws -> Void) throws {
        try AtomicFile.produce(destination) { temporary in
            let stream = try TextFileStream(path: temporary.path)
            do {
                try body(stream)
                try stream.close()
            } catch {
                try? stream.handle.close()
                throw error
            }
        }
    }
}
