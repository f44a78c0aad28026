import Foundation
import FleetCore

/// The file's bytes on their way to `XMLParser(stream:)`: always UTF-8, and stopped before
/// libxml2 sees a processing instruction without data (`<?x?>`).
///
/// WHY UTF-8 only: libxml2 2.9 under `XMLParser(stream:)` dereferences NULL in
/// `xmlParseChunk` when one of its own decoders meets bytes it cannot convert (a lone UTF-16
/// surrogate is enough: found by the `iso` fuzz harness on 2026-11-24), and in
/// `xmlSwitchToEncoding` for several declared encodings. So every file that is not UTF-8 is
/// transcoded here with glibc's iconv (UTF-16 by its byte order, 8-bit files by the encoding
/// their declaration names), the declaration is replaced by as many newlines as it spanned
/// (line numbers stay right), and libxml2 only ever reads UTF-8 without an encoding switch.
/// Bytes iconv cannot convert refuse the file with their line.
///
/// WHY the PI check: for `<?x?>` libxml2 passes a NULL data pointer to its SAX callback, and
/// FoundationXML's `_NSXMLParserProcessingInstruction` (Swift 6.3 on Linux) reads it with
/// `strlen`: SIGSEGV. A PI can stand anywhere, so every byte passes a small state machine: `<?`,
/// a target without XML whitespace, then `?>` refuses the file. It does not know comments and
/// CDATA sections, so such text inside them is refused too; no feed writes it.
///
/// On a refusal `read` returns -1, the parser stops, and `refusal` holds the located error.
final class XMLGuardedStream: InputStream {
    private let inner: InputStream
    private let file: String
    private(set) var refusal: FleetError?
    private var state = 0
    private var line = 1
    private var piLine = 1
    // Transcoding (nil: the file is UTF-8 and passes as it is).
    private let converter: iconv_t?
    private let sourceName: String
    private var skip: Int
    private var raw: [UInt8] = []
    private var converted: [UInt8] = []
    private var convertedPos = 0
    private var declarationDone = false
    private var innerEnded = false

    init(url: URL, family: XMLByteEncoding, declared: String?) throws {
        guard let inner = InputStream(url: url) else { throw FleetError.io(path: url.path, reason: "cannot open the file for reading") }
        self.inner = inner
        self.file = url.path
        var source: String? = nil
        skip = 0
        switch family {
        case let .utf16(bigEndian, bom):
            source = bigEndian ? "UTF-16BE" : "UTF-16LE"
            skip = bom ? 2 : 0
        case .ascii:
            // Only the plain spellings reach libxml2's declaration parser; a spelling such as
            // `U_T-F8` goes to iconv, which refuses it cleanly, instead of libxml2's lookup.
            if let declared, !["UTF-8", "UTF8"].contains(declared.uppercased()) { source = declared }
        case .unreadable: break
        }
        sourceName = source ?? "UTF-8"
        if let source {
            let cd = iconv_open("UTF-8", source)
            guard let cd, cd != iconv_t(bitPattern: -1) else {
                throw FleetError.unreadable(file: url.path, location: "line 1",
                    reason: "the XML is in the encoding '\(source.prefix(40))', which FleetKit cannot convert to UTF-8 on this system",
                    hint: XMLPrologGuard.hint)
            }
            converter = cd
        } else {
            converter = nil
        }
        super.init(data: Data())
    }

    deinit { if let converter { iconv_close(converter) } }

    override func open() { inner.open() }
    override func close() { inner.close() }
    override var hasBytesAvailable: Bool { refusal == nil && (convertedPos < converted.count || !innerEnded) }
    override var streamStatus: Stream.Status { refusal == nil ? inner.streamStatus : .error }
    override var streamError: Error? { refusal ?? inner.streamError }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard refusal == nil else { return -1 }
        guard converter != nil else {
            let n = inner.read(buffer, maxLength: len)
            guard n > 0 else { return n }
            for i in 0..<n { feed(buffer[i]) }
            return refusal == nil ? n : -1
        }
        while convertedPos == converted.count || !declarationDone {
            if innerEnded {
                if !declarationDone { declarationDone = true; stripDeclaration(final: true); continue }
                return 0
            }
            guard fill(max(len, 1 << 16)) else { return -1 }
            if !declarationDone { stripDeclaration(final: false) }
        }
        let n = min(len, converted.count - convertedPos)
        for i in 0..<n {
            let c = converted[convertedPos + i]
            buffer[i] = c
            feed(c)
        }
        convertedPos += n
        if convertedPos == converted.count { converted.removeAll(keepingCapacity: true); convertedPos = 0 }
        return refusal == nil ? n : -1
    }

    /// Reads up to `count` raw bytes and converts what is complete; false on a refusal.
    private func fill(_ count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: count)
        let n = inner.read(&chunk, maxLength: count)
        if n < 0 { innerEnded = true; return true }   // the parser reports a read error as an empty end
        if n == 0 { innerEnded = true } else { raw.append(contentsOf: chunk[0..<n]) }
        if skip > 0 {
            let dropped = min(skip, raw.count)
            raw.removeFirst(dropped)
            skip -= dropped
        }
        var out = [UInt8](repeating: 0, count: raw.count * 4 + 16)
        var consumed = 0, produced = 0
        var problem: Int32 = 0
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
        converted.append(contentsOf: out[0..<produced])
        raw.removeFirst(consumed)
        // EINVAL: a character continues in the next chunk (an error only at the end).
        if problem == EILSEQ || (innerEnded && !raw.isEmpty) {
            let at = line + converted[convertedPos...].reduce(0) { $1 == 10 ? $0 + 1 : $0 }
            refusal = FleetError.unreadable(file: file, location: "line \(at)",
                reason: innerEnded && problem != EILSEQ ? "the file ends inside a character: it is not complete \(sourceName)"
                    : "the bytes there are not valid \(sourceName.prefix(40)), the file's encoding",
                hint: "Nothing of this file was imported; re-export the file as UTF-8.")
            return false
        }
        return true
    }

    /// Replaces a leading `<?xml …?>` of the converted text by the newlines it spanned: the
    /// text is UTF-8 now, and a declaration naming its old encoding would switch libxml2 again.
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

    /// 0 text, 1 after `<`, 2 in a PI target, 3 after the target and `?`.
    @inline(__always) private func feed(_ c: UInt8) {
        if c == 10 { line += 1 }
        switch state {
        case 0:
            if c == UInt8(ascii: "<") { state = 1; piLine = line }
        case 1:
            state = c == UInt8(ascii: "?") ? 2 : c == UInt8(ascii: "<") ? 1 : 0
        case 2:
            if c == UInt8(ascii: "?") { state = 3 } else if XMLPrologGuard.isXMLSpace(c) { state = 0 } else if c == UInt8(ascii: "<") { state = 1; piLine = line }
        default:
            if c == UInt8(ascii: ">") {
                refusal = FleetError.unreadable(file: file, location: "line \(piLine)",
                    reason: "the XML has a processing instruction without data (<?name?>), which crashes the XML library FleetKit reads with (libxml2 under Foundation); the file was not read",
                    hint: "Nothing of this file was imported; remove the processing instruction or re-export the file.")
                state = 0
            } else if c == UInt8(ascii: "<") {
                state = 1; piLine = line
            } else if c != UInt8(ascii: "?") {
                state = 2
            }
        }
    }
}
