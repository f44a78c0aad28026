import Foundation
import FleetCore

/// The file's bytes on their way to `XMLParser(stream:)`, stopped before libxml2 sees a
/// processing instruction without data (`<?x?>`).
///
/// WHY: for such a PI libxml2 passes a NULL data pointer to its SAX callback, and
/// FoundationXML's `_NSXMLParserProcessingInstruction` (Swift 6.3 on Linux) declares that
/// pointer non-optional and reads it with `strlen`: SIGSEGV, the whole process dies. A PI can
/// stand anywhere in a document, not only in the prolog `XMLPrologGuard` reads, so every byte
/// passes through here. Found by the `iso` fuzz harness (2026-11-24, input `<?x0?> rllv<s…`).
///
/// The check is a small state machine over the characters (UTF-16 units are read as
/// characters, so `<\0?\0` is seen too): `<?`, then a target without XML whitespace, then
/// `?>` refuses the file. It does not know comments and CDATA sections, so such text inside
/// them is refused as well; no telematics feed writes it, and refusing is the safe side.
/// On a refusal `read` returns -1, the parser stops, and `refusal` holds the located error.
final class XMLGuardedStream: InputStream {
    private let inner: InputStream
    private let file: String
    private let family: XMLByteEncoding
    private(set) var refusal: FleetError?
    private var state = 0
    private var line = 1
    private var piLine = 1
    /// The first byte of a UTF-16 unit split across two reads.
    private var pending: UInt8?

    init?(url: URL, family: XMLByteEncoding) {
        guard let inner = InputStream(url: url) else { return nil }
        self.inner = inner
        self.file = url.path
        self.family = family
        super.init(data: Data())
    }

    override func open() { inner.open() }
    override func close() { inner.close() }
    override var hasBytesAvailable: Bool { refusal == nil && inner.hasBytesAvailable }
    override var streamStatus: Stream.Status { refusal == nil ? inner.streamStatus : .error }
    override var streamError: Error? { refusal ?? inner.streamError }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard refusal == nil else { return -1 }
        let n = inner.read(buffer, maxLength: len)
        guard n > 0 else { return n }
        if case let .utf16(bigEndian, _) = family {
            var i = 0
            if let first = pending, n > 0 {
                feed(unit(first, buffer[0], bigEndian))
                pending = nil
                i = 1
            }
            while i + 1 < n {
                feed(unit(buffer[i], buffer[i + 1], bigEndian))
                i += 2
            }
            if i < n { pending = buffer[i] }
        } else {
            for i in 0..<n { feed(buffer[i]) }
        }
        return refusal == nil ? n : -1
    }

    /// A UTF-16 unit as the character the state machine needs: ASCII as itself, anything else as 0x80.
    private func unit(_ a: UInt8, _ b: UInt8, _ bigEndian: Bool) -> UInt8 {
        let (high, low) = bigEndian ? (a, b) : (b, a)
        return high == 0 && low < 0x80 ? low : 0x80
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
