import Foundation
import FleetCore

/// Reads a text file line by line in bounded memory. LF, CRLF and a bare CR (what an ELM327
/// ends its lines with) all end a line. A line longer than `maxLine` bytes is cut there and
/// flagged, so a binary file or a log without line ends cannot exhaust memory.
///
/// `nextLine()` hands out the line's bytes in a buffer reused from line to line: a transcript
/// has millions of short lines, and making a `String` of each (UTF-8 validation, an allocation
/// above 15 bytes) cost more than parsing it on bytes.
struct TextLineReader {
    struct Line {
        var number: Int
        var text: String
        var truncated: Bool
    }

    static let maxLine = 64 * 1024
    private let handle: FileHandle?
    private let path: String
    private var buffer: [UInt8] = []
    private var position = 0
    private var eof = false
    private var lineNumber = 0
    private var skipLF = false
    /// The bytes of the line `nextLine()` returned last (without its line end).
    private(set) var bytes: [UInt8] = []
    /// Whether the line read last ended with a line end: false only for a last line the file
    /// stops inside, which in a logger that ends every line is the mark of a cut file.
    private(set) var lastLineEnded = true

    init(url: URL) throws {
        path = url.path
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw FleetError.io(path: url.path, reason: "cannot open: \(error.localizedDescription)")
        }
    }

    /// For tests and fuzzing: lines of bytes in memory.
    init(data: Data) {
        handle = nil
        path = "(memory)"
        buffer = Array(data)
        eof = true
    }

    /// The next line as text.
    mutating func next() throws -> Line? {
        guard let (number, truncated) = try nextLine() else { return nil }
        return Line(number: number, text: String(decoding: bytes, as: UTF8.self), truncated: truncated)
    }

    /// Advances to the next line, whose bytes are then in `bytes`: its 1-based number and
    /// whether it was cut at `maxLine`; nil at the end of the file.
    mutating func nextLine() throws -> (number: Int, truncated: Bool)? {
        bytes.removeAll(keepingCapacity: true)
        var truncated = false
        var ended = false
        while !ended {
            if position >= buffer.count {
                if eof {
                    if bytes.isEmpty && !truncated { try? handle?.close(); return nil }
                    break
                }
                try refill()
                continue
            }
            if skipLF {
                skipLF = false
                if buffer[position] == 0x0A { position += 1; continue }
            }
            // Scan to the line end in the buffer, then copy the run at once.
            let start = position
            var end = start
            buffer.withUnsafeBufferPointer { p in
                while end < p.count, p[end] != 0x0A, p[end] != 0x0D { end += 1 }
            }
            let room = Self.maxLine - bytes.count
            if end - start > room {
                bytes.append(contentsOf: buffer[start..<(start + room)])
                truncated = true
            } else {
                bytes.append(contentsOf: buffer[start..<end])
            }
            position = end
            if end < buffer.count {
                if buffer[end] == 0x0D { skipLF = true }
                position += 1
                ended = true
            }
        }
        lineNumber += 1
        lastLineEnded = ended
        if lineNumber == 1, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { bytes.removeFirst(3) }
        return (lineNumber, truncated)
    }

    /// Reads the next line and hands `body` its number, whether it was cut, and its bytes: in
    /// place in the read buffer when the whole line is there (nearly always; saves copying every
    /// line), else from `bytes`. False at the end of the file.
    mutating func withNextLine(_ body: (_ number: Int, _ truncated: Bool, _ line: UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        if skipLF, position < buffer.count {
            skipLF = false
            if buffer[position] == 0x0A { position += 1 }
        }
        if !skipLF, lineNumber > 0, position < buffer.count {
            let start = position
            let found: Int? = buffer.withUnsafeBufferPointer { p in
                var end = start
                while end < p.count, end - start <= Self.maxLine {
                    if p[end] == 0x0A || p[end] == 0x0D { return end }
                    end += 1
                }
                return nil
            }
            if let end = found, end - start <= Self.maxLine {
                lineNumber += 1
                lastLineEnded = true
                position = end + 1
                if buffer[end] == 0x0D { skipLF = true }
                let number = lineNumber
                try buffer.withUnsafeBufferPointer { p in try body(number, false, UnsafeBufferPointer(rebasing: p[start..<end])) }
                return true
            }
        }
        guard let (number, truncated) = try nextLine() else { return false }
        try bytes.withUnsafeBufferPointer { try body(number, truncated, $0) }
        return true
    }

    private mutating func refill() throws {
        guard let handle else { eof = true; return }
        let chunk: Data?
        do { chunk = try handle.read(upToCount: 256 * 1024) } catch {
            throw FleetError.io(path: path, reason: "read failed: \(error.localizedDescription)")
        }
        guard let chunk, !chunk.isEmpty else { eof = true; return }
        // One memcpy into the buffer kept from chunk to chunk.
        buffer.removeAll(keepingCapacity: true)
        chunk.withUnsafeBytes { buffer.append(contentsOf: $0.bindMemory(to: UInt8.self)) }
        position = 0
    }
}
