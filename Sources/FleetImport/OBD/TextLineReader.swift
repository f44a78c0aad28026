import Foundation
import FleetCore

/// Reads a text file line by line in bounded memory. LF, CRLF and a bare CR (what an ELM327
/// ends its lines with) all end a line. A line longer than `maxLine` bytes is cut there and
/// flagged, so a binary file or a log without line ends cannot exhaust memory.
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

    mutating func next() throws -> Line? {
        var line: [UInt8] = []
        var truncated = false
        while true {
            if position >= buffer.count {
                if eof {
                    if line.isEmpty && !truncated { try? handle?.close(); return nil }
                    break
                }
                try refill()
                continue
            }
            let b = buffer[position]
            position += 1
            if skipLF {
                skipLF = false
                if b == 0x0A { continue }
            }
            if b == 0x0A { break }
            if b == 0x0D { skipLF = true; break }
            if line.count < Self.maxLine { line.append(b) } else { truncated = true }
        }
        lineNumber += 1
        if line.first == 0xEF, line.count >= 3, line[1] == 0xBB, line[2] == 0xBF, lineNumber == 1 { line.removeFirst(3) }
        return Line(number: lineNumber, text: String(decoding: line, as: UTF8.self), truncated: truncated)
    }

    private mutating func refill() throws {
        guard let handle else { eof = true; return }
        let chunk: Data?
        do { chunk = try handle.read(upToCount: 64 * 1024) } catch {
            throw FleetError.io(path: path, reason: "read failed: \(error.localizedDescription)")
        }
        guard let chunk, !chunk.isEmpty else { eof = true; return }
        buffer = Array(chunk)
        position = 0
    }
}
