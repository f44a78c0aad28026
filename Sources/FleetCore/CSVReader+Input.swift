import Foundation

// MARK: - Input: chunks and encodings
// Self-contained: this block can move to a file of its own.

extension CSVReader {
    enum Encoding: Equatable { case utf8, utf16LE, utf16BE }

    /// Encoding from the BOM, else from the NUL pattern that BOM-less UTF-16 leaves in mostly
    /// ASCII text (UTF-8 text never contains NUL). Returns the BOM length to skip.
    static func detectEncoding(_ head: Data) throws -> (Encoding, bom: Int) {
        let b = [UInt8](head.prefix(64))
        if b.starts(with: [0xFF, 0xFE, 0, 0]) || b.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw CSVError.unsupportedEncoding("UTF-32 (byte order mark found); save the file as UTF-8 or UTF-16")
        }
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if b.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if b.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        let pairs = b.count / 2
        guard pairs >= 2 else { return (.utf8, 0) }
        var evenNUL = 0, oddNUL = 0
        for k in 0..<(pairs * 2) where b[k] == 0 {
            if k % 2 == 0 { evenNUL += 1 } else { oddNUL += 1 }
        }
        // Tolerate a few NULs on the other side: CJK characters such as U+4E00 have a zero byte.
        if oddNUL * 2 >= pairs && evenNUL * 8 <= pairs { return (.utf16LE, 0) }
        if evenNUL * 2 >= pairs && oddNUL * 8 <= pairs { return (.utf16BE, 0) }
        return (.utf8, 0)
    }

    /// The first `headSize` bytes of `body` as UTF-8, for sniffing only.
    static func transcodeHead(_ body: Data, _ encoding: Encoding) -> [UInt8] {
        let input = body.prefix(headSize)
        var transcoder = Transcoder(encoding)
        var out = [UInt8](repeating: 0, count: Transcoder.maxOutput(input.count))
        let n = out.withUnsafeMutableBufferPointer { o in
            input.withUnsafeBytes { transcoder.transcode($0, into: o.baseAddress!) }
        }
        return Array(out[..<n])
    }

    /// Chunks of the input: first the already-read head (re-chunked, so tests with tiny chunks
    /// exercise every boundary), then the file itself.
    struct Source {
        private var head: Data
        private var index: Data.Index
        private var handle: FileHandle?
        let chunkSize: Int

        init(head: Data, handle: FileHandle?, chunkSize: Int) {
            self.head = head
            index = head.startIndex
            self.handle = handle
            self.chunkSize = chunkSize
        }

        mutating func next() throws -> Data? {
            if index < head.endIndex {
                let stop = index + min(chunkSize, head.endIndex - index)
                defer { index = stop }
                return head[index..<stop]
            }
            head = Data()
            index = head.startIndex
            guard let h = handle else { return nil }
            do {
                if let chunk = try h.read(upToCount: chunkSize), !chunk.isEmpty { return chunk }
            } catch {
                close()
                throw CSVError.io(error.localizedDescription)
            }
            close()
            return nil
        }

        mutating func close() {
            try? handle?.close()
            handle = nil
        }
    }

    /// Turns input bytes into UTF-8 a chunk at a time, carrying an odd byte or a high surrogate
    /// across chunk boundaries. An unpaired surrogate becomes the byte 0xFF, never valid in
    /// UTF-8, so the record decoder replaces it with U+FFFD and flags the record exactly as it
    /// does for bad UTF-8 input.
    struct Transcoder {
        let encoding: Encoding
        private var oddByte: UInt8?
        private var high: UInt32 = 0  // pending high surrogate, 0 when none

        init(_ encoding: Encoding) { self.encoding = encoding }

        static func maxOutput(_ inputCount: Int) -> Int { 2 * inputCount + 8 }

        mutating func transcode(_ input: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Int {
            guard encoding != .utf8 else {
                if let base = input.baseAddress { UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: input.count) }
                return input.count
            }
            let big = encoding == .utf16BE
            var o = 0, k = 0
            if let first = oddByte, !input.isEmpty {
                let (a, b) = (UInt32(first), UInt32(input[0]))
                o = emit(big ? a << 8 | b : b << 8 | a, out, o)
                oddByte = nil
                k = 1
            }
            while k + 1 < input.count {
                let (a, b) = (UInt32(input[k]), UInt32(input[k + 1]))
                o = emit(big ? a << 8 | b : b << 8 | a, out, o)
                k += 2
            }
            if k < input.count { oddByte = input[k] }
            return o
        }

        /// At end of input: flushes a dangling high surrogate, and reports a left-over odd byte.
        mutating func finish(into out: UnsafeMutablePointer<UInt8>) -> (count: Int, oddTail: Bool) {
            let count = high != 0 ? 1 : 0
            if count == 1 { out[0] = 0xFF }
            let odd = oddByte != nil
            high = 0
            oddByte = nil
            return (count, odd)
        }

        private mutating func emit(_ u: UInt32, _ out: UnsafeMutablePointer<UInt8>, _ start: Int) -> Int {
            var o = start
            let pending = high
            high = 0
            if pending != 0 {
                if u & 0xFC00 == 0xDC00 {
                    let c = 0x10000 + ((pending - 0xD800) << 10) + (u - 0xDC00)
                    out[o] = UInt8(truncatingIfNeeded: 0xF0 | c >> 18)
                    out[o + 1] = UInt8(truncatingIfNeeded: 0x80 | (c >> 12) & 0x3F)
                    out[o + 2] = UInt8(truncatingIfNeeded: 0x80 | (c >> 6) & 0x3F)
                    out[o + 3] = UInt8(truncatingIfNeeded: 0x80 | c & 0x3F)
                    return o + 4
                }
                out[o] = 0xFF
                o += 1
            }
            switch u {
            case 0..<0x80:
                out[o] = UInt8(truncatingIfNeeded: u)
                return o + 1
            case 0x80..<0x800:
                out[o] = UInt8(truncatingIfNeeded: 0xC0 | u >> 6)
                out[o + 1] = UInt8(truncatingIfNeeded: 0x80 | u & 0x3F)
                return o + 2
            case 0xD800..<0xDC00:
                high = u
                return o
            case 0xDC00..<0xE000:
                out[o] = 0xFF
                return o + 1
            default:
                out[o] = UInt8(truncatingIfNeeded: 0xE0 | u >> 12)
                out[o + 1] = UInt8(truncatingIfNeeded: 0x80 | (u >> 6) & 0x3F)
                out[o + 2] = UInt8(truncatingIfNeeded: 0x80 | u & 0x3F)
                return o + 3
            }
        }
    }
}

