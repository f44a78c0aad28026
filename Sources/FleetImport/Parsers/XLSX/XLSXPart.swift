import Foundation

/// One XML part of a workbook, streamed from its zip entry through FleetKit's own tokenizer
/// (`XMLTokenizer`: entities are never expanded, external ones never fetched).
///
/// Office Open XML parts never carry a DTD, so any DOCTYPE before the root element is refused
/// outright (`XLSXError.dtd`), not merely one that declares entities as other XML formats do.
final class XLSXPart: XMLByteSource {
    /// The most text one element may hold (Excel's own cell limit is 32,767 characters).
    static let maxText = 1 << 20
    let name: String
    private let entry: ZipEntryStream
    private let tokenizer: XMLTokenizer
    private var prolog: [UInt8] = []
    private var prologChecked = false

    init(_ archive: ZipArchive, _ name: String, limit: Int) throws {
        self.name = name
        entry = try archive.stream(name, limit: limit)
        let relay = PartSource()
        tokenizer = XMLTokenizer(XMLBytes(source: relay, chunkSize: 1 << 16))
        relay.part = self
        tokenizer.textLimit = Self.maxText
    }

    /// Passes the entry's bytes on, checking the prolog on the way.
    func read(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        let n = try entry.read(into: dst, max: max)
        if !prologChecked {
            prolog.append(contentsOf: UnsafeBufferPointer(start: dst, count: n))
            try checkProlog(atEnd: n == 0)
        }
        return n
    }

    /// The prolog is what comes before the first element's `<name`; a `<!DOCTYPE` there refuses the part.
    private func checkProlog(atEnd: Bool) throws {
        var i = 0
        while i < prolog.count {
            if prolog[i] == Byte.lt, i + 1 < prolog.count {
                let c = prolog[i + 1]
                if c == Byte.bang, prolog.count - i >= 9, prolog[(i + 2)..<(i + 9)].elementsEqual("DOCTYPE".utf8) {
                    throw XLSXError(.dtd, "the part declares a DTD (<!DOCTYPE>); workbook parts never do, and entity declarations are how XML bombs and external-file tricks work, so it is not read", part: name)
                }
                if c != Byte.bang, c != UInt8(ascii: "?") { prologChecked = true; prolog = []; return }
            }
            i += 1
        }
        if atEnd || prolog.count > 1 << 16 { prologChecked = true; prolog = [] }
    }

    // MARK: Events

    enum Event: Equatable { case start, end, eof }

    /// The local name of the element the last `.start` opened (valid until the next call).
    private var localName: Range<Int> = 0..<0

    func next() throws -> Event {
        do {
            switch try tokenizer.next() {
            case let .start(_, local):
                localName = local
                return .start
            case .end: return .end
            case .eof: return .eof
            }
        } catch let f as XMLFailure {
            throw XLSXError(.badXML, "line \(f.line): \(f.message)", part: name)
        }
    }

    /// The last start tag's local name is `s`.
    func named(_ s: StaticString) -> Bool {
        guard localName.count == s.utf8CodeUnitCount else { return false }
        return Byte.equal(tokenizer.b.p + localName.lowerBound, s.utf8Start, localName.count)
    }

    var depth: Int { tokenizer.depth }
    var line: Int { tokenizer.line }

    /// The decoded value of the last start tag's attribute with local name `s` (`r:id` is `id`:
    /// the prefix is whatever the file binds the relationships namespace to).
    func attribute(_ s: StaticString) throws -> String? {
        let attributes = tokenizer.attributes
        let p = tokenizer.b.p
        for k in 0..<attributes.count {
            let a = attributes[k]
            var start = a.nameStart
            for i in a.nameStart..<a.nameEnd where p[i] == Byte.colon { start = i + 1 }
            if a.nameEnd - start == s.utf8CodeUnitCount, Byte.equal(p + start, s.utf8Start, s.utf8CodeUnitCount) {
                do { return try tokenizer.value(a.value) } catch let f as XMLFailure {
                    throw XLSXError(.badXML, "line \(f.line): \(f.message)", part: name)
                }
            }
        }
        return nil
    }

    /// Starts collecting the text of the current element (and its children).
    func beginText() {
        tokenizer.text.truncate(0)
        tokenizer.capturing = true
    }

    /// The text collected since `beginText`, and stops collecting.
    func endText() -> String {
        tokenizer.capturing = false
        let s = String(decoding: tokenizer.text.buffer, as: UTF8.self)
        tokenizer.text.truncate(0)
        return s
    }

    /// The size of the text collected so far (a bound on one cell's text).
    var textCount: Int { tokenizer.text.count }

    /// Skips to the end of the element just started.
    func skipElement() throws {
        let target = depth - 1
        while depth > target {
            if try next() == .eof { return }
        }
    }
}

/// The indirection that lets `XLSXPart` be both the tokenizer's byte source and its owner.
private final class PartSource: XMLByteSource {
    weak var part: XLSXPart?
    func read(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        guard let part else { return 0 }
        return try part.read(into: dst, max: max)
    }
}
