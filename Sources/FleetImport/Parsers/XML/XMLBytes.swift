import Foundation
import FleetCore

/// Bytes produced on demand for `XMLBytes` (a zip entry inflated as it is read).
protocol XMLByteSource: AnyObject {
    /// Copies up to `max` bytes to `dst`; 0 at the end.
    func read(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int
}

/// A sliding window over a file, read in fixed-size chunks.
///
/// The tokenizer scans bytes through `p` between `pos` and `end`. When a token runs past `end`,
/// `refill(keeping:)` moves the unread tail (and the pinned start of the current point, so a
/// rejected point can quote its raw text) to the front and reads the next chunk. Memory is the
/// chunk size plus the longest single token, never the file.
final class XMLBytes {
    private let handle: FileHandle?
    @exclusivity(unchecked) private var memory: [UInt8]?
    @exclusivity(unchecked) private var memoryOffset = 0
    private var transcoder: XMLTranscoder? = nil
    private var source: XMLByteSource? = nil
    /// Refuse control characters XML does not allow (below 0x20 but tab, LF and CR) as each
    /// chunk arrives. The ISO 15143-3 / AEMP 1.2 reader sets it (a feed with one was always
    /// refused, see FORMATS.md); the GPX scanner does not look at bytes it does not use.
    var refusesControlCharacters = false
    /// Newlines among the bytes read so far, while `refusesControlCharacters` (the line of a refusal).
    private var readLines = 0
    /// A control character found at the end of the bytes read: the next refill throws it.
    private var refused: XMLFailure?
    let chunkSize: Int
    /// The largest token (tag, comment, DOCTYPE) the window grows to hold.
    static let tokenLimit = 16 << 20

    @exclusivity(unchecked) private(set) var p: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var capacity: Int
    /// Scan position and end of valid bytes, as offsets into `p`.
    @exclusivity(unchecked) var pos = 0
    @exclusivity(unchecked) private(set) var end = 0
    /// File offset of `p[0]`.
    @exclusivity(unchecked) private(set) var base: Int64 = 0
    @exclusivity(unchecked) private(set) var eof = false
    /// Offset in `p` of bytes that must survive a refill (the start of the current point), or -1.
    @exclusivity(unchecked) var pin = -1
    /// The first bytes of a pinned point that outgrew `pinLimit` (its raw text, capped).
    @exclusivity(unchecked) var pinnedPrefix: [UInt8]? = nil
    static let pinLimit = 64 << 10

    init(url: URL, chunkSize: Int = 1 << 20) throws {
        guard let h = FileHandle(forReadingAtPath: url.path) else {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading; check its permissions")
        }
        handle = h
        memory = nil
        self.chunkSize = max(chunkSize, 1)
        capacity = max(self.chunkSize * 2, 4096)
        p = .allocate(capacity: capacity)
    }

    /// Reads a UTF-16 or 8-bit file as UTF-8 through `transcoder` (which owns the file).
    init(transcoder: XMLTranscoder, chunkSize: Int = 1 << 20) {
        handle = nil
        memory = nil
        self.transcoder = transcoder
        self.chunkSize = max(chunkSize, 1)
        capacity = max(self.chunkSize * 2, 4096)
        p = .allocate(capacity: capacity)
    }

    /// Reads what `source` produces (an inflated zip entry).
    init(source: XMLByteSource, chunkSize: Int = 1 << 16) {
        handle = nil
        memory = nil
        self.source = source
        self.chunkSize = max(chunkSize, 1)
        capacity = max(self.chunkSize * 2, 4096)
        p = .allocate(capacity: capacity)
    }

    /// Reads from bytes in memory, still `chunkSize` at a time (tests use tiny chunks to put a
    /// chunk boundary inside every token).
    init(bytes: [UInt8], chunkSize: Int = 1 << 20) {
        handle = nil
        memory = bytes
        self.chunkSize = max(chunkSize, 1)
        capacity = max(self.chunkSize * 2, 64)
        p = .allocate(capacity: capacity)
    }

    deinit {
        p.deallocate()
        try? handle?.close()
    }

    /// The file offset of a position in the window.
    func offset(_ i: Int) -> Int64 { base + Int64(i) }

    /// Keeps `[min(keep, pin) ..< end)`, moves it to the front and reads the next chunk after
    /// it. Returns how far the kept bytes moved left (callers subtract it from offsets they
    /// hold) and whether new bytes arrived (false at the end of the file).
    func refill(keeping keep: Int) throws -> (shift: Int, more: Bool) {
        if let refused { throw refused }
        if eof { return (0, false) }
        if pin >= 0, keep - pin > Self.pinLimit {
            // A point this long keeps only the start of its raw text (rejects cap it anyway).
            pinnedPrefix = Array(UnsafeBufferPointer(start: p + pin, count: Issue.rawLimit + 1))
            pin = -1
        }
        let from = pin >= 0 ? min(keep, pin) : keep
        let kept = end - from
        if from > 0 { dropColumns(before: from) }
        if kept + chunkSize > capacity {
            guard kept <= Self.tokenLimit else {
                throw XMLFailure("a single XML token is longer than \(Self.tokenLimit >> 20) MiB", offset: offset(from))
            }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: kept + chunkSize)
            bigger.update(from: p + from, count: kept)
            p.deallocate()
            p = bigger
            capacity = kept + chunkSize
        } else if from > 0 {
            memmove(p, p + from, kept)
        }
        base += Int64(from)
        end = kept
        pos -= from
        if pin >= 0 { pin -= from }
        var n = try read(into: p + end, max: chunkSize)
        if n == 0 { eof = true }
        if refusesControlCharacters, let bad = checkCharacters(p + end, n) {
            // Only the bytes before it are scanned, so a problem earlier in the document is
            // still the one reported; asking for more then fails with this one.
            refused = XMLFailure("a control character (byte \(p[end + bad])) that XML does not allow", offset: base + Int64(end + bad),
                                 line: readLines + 1, kind: .invalidCharacter)
            if bad == 0 { throw refused! }
            n = bad
        }
        end += n
        return (from, n > 0)
    }

    /// Characters of the line that runs across `p[0]` which refills have moved out of the
    /// window: a column counted back to the window's start adds them.
    @exclusivity(unchecked) private(set) var droppedColumns = 0

    private func dropColumns(before from: Int) {
        var k = from, n = 0
        while k > 0, p[k - 1] != Byte.newline {
            k -= 1
            if p[k] & 0xC0 != 0x80 { n += 1 }
        }
        droppedColumns = k > 0 ? n : droppedColumns + n
    }

    /// The first control character XML does not allow (below 0x20 but tab, LF and CR) among
    /// `n` new bytes, counting the newlines before it.
    private func checkCharacters(_ q: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int? {
        var lines = readLines
        defer { readLines = lines }
        for k in 0..<n {
            let c = q[k]
            guard c < 0x20 else { continue }
            if c == 10 { lines += 1; continue }
            if c == 9 || c == 13 { continue }
            return k
        }
        return nil
    }

    private func read(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        if let transcoder { return try transcoder.read(into: dst, max: max) }
        if let source { return try source.read(into: dst, max: max) }
        if let count = memory?.count {
            let n = min(max, count - memoryOffset)
            if n > 0 { memory!.withUnsafeBufferPointer { dst.update(from: $0.baseAddress! + memoryOffset, count: n) } }
            memoryOffset += n
            return n
        }
        // read(2) straight into the window: FileHandle.read would allocate and copy a Data.
        let fd = handle!.fileDescriptor
        while true {
            let n = Foundation.read(fd, dst, max)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw XMLFailure("read failed: \(String(cString: strerror(errno)))", offset: base + Int64(end))
        }
    }

    /// Starts keeping bytes from `i` on across refills.
    func setPin(_ i: Int) {
        pin = i
        pinnedPrefix = nil
    }

    /// The raw text from the pin to `to`, as a reject quotes it.
    func pinnedText(to: Int) -> String {
        if let prefix = pinnedPrefix { return String(decoding: prefix, as: UTF8.self) }
        return pin >= 0 ? string(pin, to) : ""
    }

    /// The bytes `[from, to)` as text (invalid UTF-8 is replaced, never guessed).
    func string(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p + from, count: max(0, to - from)), as: UTF8.self)
    }
}
