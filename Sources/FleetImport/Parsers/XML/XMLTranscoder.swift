import Foundation
import FleetCore

/// The bytes of a UTF-16 or 8-bit XML file as UTF-8, for `XMLBytes`: the tokenizer reads
/// UTF-8 only, so every other encoding FleetKit reads is converted here, a chunk at a time.
///
/// Which files come here is decided by `source(family:declared:)` from what `XMLPrologGuard`
/// found: UTF-16 by its byte order, and an 8-bit file by the encoding its declaration names
/// unless that is plainly UTF-8. UTF-32 and EBCDIC never get this far (the guard refuses them).
/// glibc's iconv converts; bytes it cannot convert refuse the file with their line, and a file
/// that ends inside a character is refused as incomplete.
///
/// The leading `<?xml …?>` of the converted text is replaced by as many newlines as it spanned:
/// the text is UTF-8 now, a declaration naming its old encoding would be wrong, and line
/// numbers stay those of the file.
final class XMLTranscoder {
    private let handle: FileHandle
    private let file: String
    private let converter: iconv_t
    /// The encoding converted from, as iconv names it (and messages quote it).
    let sourceName: String
    private var skip: Int
    private var raw: [UInt8] = []
    private var converted: [UInt8] = []
    private var convertedPos = 0
    private var declarationDone = false
    private var rawEnded = false
    /// Newlines in the converted text handed out so far: the line of a bad byte.
    private var lines = 0

    /// The encoding to convert from, or nil when the file is UTF-8 and is read as it is. Only
    /// the plain spellings of UTF-8 are read directly; a spelling such as `U_T-F8` goes to iconv,
    /// which reads or refuses it, instead of being guessed at.
    static func source(family: XMLByteEncoding, declared: String?) -> (name: String, skip: Int)? {
        switch family {
        case let .utf16(bigEndian, bom): return (bigEndian ? "UTF-16BE" : "UTF-16LE", bom ? 2 : 0)
        case .ascii:
            guard let declared, !["UTF-8", "UTF8"].contains(declared.uppercased()) else { return nil }
            return (declared, 0)
        case .unreadable: return nil
        }
    }

    init(url: URL, source: String, skip: Int) throws {
        guard let h = FileHandle(forReadingAtPath: url.path) else {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading; check its permissions")
        }
        let cd = iconv_open("UTF-8", source)
        guard let cd, cd != iconv_t(bitPattern: -1) else {
            try? h.close()
            throw FleetError.unreadable(file: url.path, location: "line 1",
                reason: "the XML is in the encoding '\(source.prefix(40))', which FleetKit cannot convert to UTF-8 on this system",
                hint: XMLPrologGuard.hint)
        }
        handle = h
        file = url.path
        converter = cd
        sourceName = source
        self.skip = skip
    }

    deinit {
        iconv_close(converter)
        try? handle.close()
    }

    /// Copies up to `max` converted bytes to `dst`; 0 at the end of the file.
    func read(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        while convertedPos == converted.count || !declarationDone {
            if rawEnded {
                if !declarationDone { declarationDone = true; stripDeclaration(final: true); continue }
                return 0
            }
            try fill(Swift.max(max, 1 << 16))
            if !declarationDone { stripDeclaration(final: false) }
        }
        let n = min(max, converted.count - convertedPos)
        converted.withUnsafeBufferPointer { dst.update(from: $0.baseAddress! + convertedPos, count: n) }
        for k in 0..<n where dst[k] == 10 { lines += 1 }
        convertedPos += n
        if convertedPos == converted.count { converted.removeAll(keepingCapacity: true); convertedPos = 0 }
        return n
    }

    /// Reads up to `count` raw bytes and converts what is complete.
    private func fill(_ count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: count)
        let fd = handle.fileDescriptor
        var n: Int
        repeat { n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, count) } } while n < 0 && errno == EINTR
        if n < 0 { throw FleetError.io(path: file, reason: "read failed: \(String(cString: strerror(errno)))") }
        if n == 0 { rawEnded = true } else { raw.append(contentsOf: chunk[0..<n]) }
        if skip > 0 {
            let dropped = min(skip, raw.count)
            raw.removeFirst(dropped)
            skip -= dropped
        }
        var out = [UInt8](repeating: 0, count: raw.count * 4 + 16)
        var consumed = 0, produced = 0
        var problem: Int32 = 0
        if !raw.isEmpty {
            raw.withUnsafeMutableBufferPointer { inBuf in
                out.withUnsafeMutableBufferPointer { outBuf in
                    var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                    var inLeft = inBuf.count
                    var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                    var outLeft = outBuf.count
                    if iconv(converter, &inPtr, &inLeft, &outPtr, &outLeft) == -1 { problem = errno }
                    consumed = inBuf.count - inLeft
                    produced = outBuf.count - outLeft
                }
            }
        }
        converted.append(contentsOf: out[0..<produced])
        raw.removeFirst(consumed)
        // EINVAL: a character continues in the next chunk (an error only at the end).
        if problem == EILSEQ || (rawEnded && !raw.isEmpty) {
            let at = 1 + lines + converted[convertedPos...].reduce(0) { $1 == 10 ? $0 + 1 : $0 }
            throw FleetError.unreadable(file: file, location: "line \(at)",
                reason: rawEnded && problem != EILSEQ ? "the file ends inside a character: it is not complete \(sourceName)"
                    : "the bytes there are not valid \(sourceName.prefix(40)), the file's encoding",
                hint: "Nothing of this file was imported; re-export the file as UTF-8.")
        }
    }

    /// Replaces a leading `<?xml …?>` of the converted text by the newlines it spanned.
    private func stripDeclaration(final: Bool) {
        let text = converted[convertedPos...]
        let head = Array("<?xml".utf8)
        if text.count < head.count + 1 {
            if final || !head.starts(with: text) { declarationDone = true }
            return
        }
        guard text.starts(with: head), XMLPrologGuard.isXMLSpace(text[text.startIndex + 5]) else { declarationDone = true; return }
        var end = text.startIndex + 5
        while end + 1 < text.endIndex, !(text[end] == UInt8(ascii: "?") && text[end + 1] == UInt8(ascii: ">")) { end += 1 }
        guard end + 1 < text.endIndex || final else { return }   // wait for the `?>`
        let newlines = text[text.startIndex..<min(end + 2, text.endIndex)].filter { $0 == 10 }.count
        converted.replaceSubrange(convertedPos..<min(end + 2, converted.count), with: [UInt8](repeating: 10, count: newlines))
        declarationDone = true
    }
}
