import Foundation

/// A streaming, non-validating XML tokenizer over bytes that checks what matters to trust a
/// file: tags nest and match, attributes are quoted, text outside the root is blank, entity
/// references are the five predefined ones or character references. It never reads a DTD:
/// a DOCTYPE declaring entities is refused (entity expansion is the classic XML bomb), and
/// external entities are never fetched.
final class XMLTokenizer {
    let b: XMLBytes
    /// The current line (1-based), counted as bytes are passed.
    @exclusivity(unchecked) private(set) var line = 1
    /// Attribute local names and raw (undecoded) values of the last start tag.
    @exclusivity(unchecked) private(set) var attributes = PODStack<XMLAttribute>(capacity: 8)
    /// While true, text and CDATA are decoded into `text`.
    @exclusivity(unchecked) var capturing = false
    @exclusivity(unchecked) var text = PODStack<UInt8>(capacity: 256)
    /// The most text kept while `capturing`: past it the file is refused, so one hostile text
    /// node cannot grow memory without limit (the workbook reader sets it; others rely on the file size).
    var textLimit = Int.max
    /// Start of the last start tag's `<`, for raw-text pins.
    @exclusivity(unchecked) private(set) var tagStart = 0
    /// Line of the last start tag's `<`.
    @exclusivity(unchecked) private(set) var tagLine = 1
    /// The file declares ISO-8859-1 or windows-1252: text is decoded as Latin-1.
    @exclusivity(unchecked) private(set) var latin1 = false
    /// URIs met for namespaces outside GPX and Garmin's extension (for notes).
    @exclusivity(unchecked) private(set) var foreignURIs: [String] = []

    /// The qualified names of open elements, back to back (a manual stack: Array's
    /// append/remove showed up in profiles at millions of tags per second).
    @exclusivity(unchecked) private var names = PODStack<UInt8>(capacity: 256)
    /// Byte classes (flags in `XMLClass`): one table load per byte instead of a chain of compares.
    let classes: UnsafeMutablePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        t.initialize(repeating: 0, count: 256)
        for b in 0...255 where Byte.isSpace(UInt8(b)) { t[b] = XMLClass.blank | XMLClass.endsName }
        for b in [Byte.gt, Byte.slash, Byte.eq] { t[Int(b)] = XMLClass.endsName }
        for b in [Byte.lt, Byte.amp, Byte.newline] { t[Int(b)] |= XMLClass.textStop }
        t[Int(Byte.colon)] = XMLClass.colon
        return t
    }()
    @exclusivity(unchecked) private var open = PODStack<OpenElement>(capacity: 32)
    @exclusivity(unchecked) private var bindings: [(prefix: [UInt8], ns: XMLNamespace)] = [] {
        didSet { bindingsVersion &+= 1 }
    }
    /// Changes whenever `bindings` does, so a resolved prefix can be reused until then.
    @exclusivity(unchecked) private var bindingsVersion = 0
    /// The last prefix resolved by `namespace(prefix:_:)`, its namespace and the bindings it was resolved in.
    @exclusivity(unchecked) private var cachedPrefix = PODStack<UInt8>(capacity: 16)
    @exclusivity(unchecked) private var cachedPrefixNS = XMLNamespace.unbound
    @exclusivity(unchecked) private var cachedPrefixVersion = -1
    @exclusivity(unchecked) private var defaultNS = XMLNamespace.none
    @exclusivity(unchecked) private var pendingEnd = false
    @exclusivity(unchecked) private var sawRoot = false
    @exclusivity(unchecked) private var started = false
    /// Refuse a processing instruction without data (`<?name?>`) as not well-formed. The
    /// ISO 15143-3 / AEMP 1.2 reader sets it: those feeds were always refused for one (see
    /// FORMATS.md); GPX skips it like any other PI.
    var refusesProcessingInstructionsWithoutData = false

    init(_ bytes: XMLBytes) { b = bytes }

    deinit {
        names.free()
        open.free()
        attributes.free()
        text.free()
        cachedPrefix.free()
        classes.deallocate()
    }

    @inline(__always) private func endsName(_ c: UInt8) -> Bool { classes[Int(c)] & XMLClass.endsName != 0 }
    @inline(__always) private func isSpace(_ c: UInt8) -> Bool { classes[Int(c)] & XMLClass.blank != 0 }

    var depth: Int { open.count }
    /// The namespace of unprefixed element names here (the innermost `xmlns="…"`).
    var defaultNamespace: XMLNamespace { defaultNS }
    /// A self-closing element was returned as `.start`; its `.end` comes next, before any byte.
    var hasPendingEnd: Bool { pendingEnd }

    /// Moves past bytes a caller has read itself (the GPX point fast path): `lines` newlines
    /// among them. The caller has checked they are well-formed and close every element they open.
    func pass(to pos: Int, lines: Int) {
        b.pos = pos
        line += lines
    }

    /// The namespace an element prefix is bound to here (the innermost binding), `.unbound`
    /// when none. The last answer is kept until the bindings change: a GPX file names the same
    /// extension prefix three times per point.
    @inline(__always) func namespace(prefix: UnsafePointer<UInt8>, _ count: Int) -> XMLNamespace {
        if cachedPrefixVersion == bindingsVersion, cachedPrefix.count == count, Byte.equal(cachedPrefix.p, prefix, count) { return cachedPrefixNS }
        return resolve(prefix: prefix, count)
    }

    private func resolve(prefix: UnsafePointer<UInt8>, _ count: Int) -> XMLNamespace {
        var ns = XMLNamespace.unbound
        for k in bindings.indices.reversed() where bindings[k].prefix.count == count {
            if bindings[k].prefix.withUnsafeBufferPointer({ memcmp($0.baseAddress!, prefix, count) == 0 }) { ns = bindings[k].ns; break }
        }
        cachedPrefix.truncate(0)
        cachedPrefix.append(prefix, count)
        cachedPrefixNS = ns
        cachedPrefixVersion = bindingsVersion
        return ns
    }

    private enum Step { case event(XMLEvent), skipped, needMore }

    func next() throws -> XMLEvent {
        if pendingEnd { pendingEnd = false; pop(); return .end }
        if !started { try begin() }
        while true {
            if b.pos >= b.end {
                if try !b.refill(keeping: b.pos).more { return try finish() }
                continue
            }
            if b.p[b.pos] != Byte.lt { try scanText(); continue }
            let start = b.pos, savedLine = line, savedText = text.count
            switch try markup(start) {
            case .event(let e): return e
            case .skipped: continue
            case .needMore:
                line = savedLine
                text.truncate(savedText)
                let r = try b.refill(keeping: start)
                guard r.more else { throw fail("the file ends inside a tag, comment or CDATA section (truncated?)", at: start - r.shift, .truncated, columnAt: b.end) }
                b.pos = start - r.shift
            }
        }
    }

    /// Refuses UTF-16 and skips a UTF-8 byte order mark.
    private func begin() throws {
        started = true
        while b.end - b.pos < 4, try b.refill(keeping: b.pos).more {}
        let n = b.end - b.pos, p = b.p + b.pos
        if n >= 2, (p[0] == 0xFE && p[1] == 0xFF) || (p[0] == 0xFF && p[1] == 0xFE) || (n >= 4 && (p[0] == 0 || p[1] == 0)) {
            throw fail("the file is UTF-16; FleetKit reads GPX in UTF-8 (re-save it as UTF-8)", at: b.pos, .invalidCharacter)
        }
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { b.pos += 3 }
    }

    private func finish() throws -> XMLEvent {
        if let top = open.last {
            throw XMLFailure("the file ends inside <\(name(top.nameStart))> opened at line \(top.line) (truncated?)", offset: b.offset(b.end), line: line,
                             column: column(at: b.end), kind: .unclosed)
        }
        guard sawRoot else { throw fail("no XML element found: this is not a GPX file", at: b.end, .empty) }
        return .eof
    }

    func fail(_ message: String, at i: Int, _ kind: XMLFailure.Kind = .other, columnAt c: Int? = nil) -> XMLFailure {
        XMLFailure(message, offset: b.offset(i), line: line, column: column(at: c ?? i), kind: kind)
    }

    /// The column (1-based, in characters) of window position `i`: counted back to the last
    /// newline, plus what refills dropped of a line that runs across the window's start. Only
    /// failures ask, so the scanning loops never track columns.
    func column(at i: Int) -> Int {
        var k = min(max(i, 0), b.end)
        var n = 1
        while k > 0, b.p[k - 1] != Byte.newline {
            k -= 1
            if b.p[k] & 0xC0 != 0x80 { n += 1 }
        }
        return k == 0 ? n + b.droppedColumns : n
    }

    private func name(_ start: Int) -> String { String(decoding: UnsafeBufferPointer(start: names.p + start, count: names.count - start), as: UTF8.self) }

    // MARK: Text

    private func scanText() throws {
        let p = b.p, end = b.end, root = open.isEmpty
        var i = b.pos
        var runStart = i
        defer { b.pos = i }
        while i < end {
            let c = p[i]
            if c == Byte.lt { break }
            if c == Byte.newline { line += 1 } else if c == Byte.amp {
                if capturing { text.append(p + runStart, i - runStart) }
                guard let after = try entity(at: i, into: capturing) else {
                    // The reference runs past the window: refill and come back to the `&`.
                    b.pos = i
                    let r = try b.refill(keeping: i)
                    guard r.more else { throw fail("the file ends inside an entity reference", at: i - r.shift, .truncated, columnAt: b.end) }
                    i = b.pos
                    return
                }
                i = after
                runStart = i
                continue
            } else if root, !isSpace(c) {
                throw fail("text outside the root element", at: i, sawRoot ? .extraContent : .empty)
            }
            i += 1
        }
        if capturing {
            text.append(p + runStart, i - runStart)
            if text.count > textLimit { throw fail("a text of more than \(textLimit) bytes", at: i) }
        }
    }

    /// Decodes `&…;` at `i` (appending to `text` when `append`); nil when it runs past the window.
    private func entity(at i: Int, into append: Bool) throws -> Int? {
        let p = b.p
        var j = i + 1
        while j < b.end, j - i < 12, p[j] == Byte.hash || (p[j] | 0x20 >= 0x61 && p[j] | 0x20 <= 0x7A) || (p[j] >= 0x30 && p[j] <= 0x39) { j += 1 }
        guard j < b.end else { return nil }
        guard p[j] == Byte.semicolon else { throw fail("a bare '&' (write &amp;)", at: i, .bareAmpersand) }
        let body = UnsafeBufferPointer(start: p + i + 1, count: j - i - 1)
        var scalar: UInt32
        switch String(decoding: body, as: UTF8.self) {
        case "lt": scalar = 0x3C
        case "gt": scalar = 0x3E
        case "amp": scalar = 0x26
        case "quot": scalar = 0x22
        case "apos": scalar = 0x27
        case let s where s.hasPrefix("#x"): scalar = UInt32(s.dropFirst(2), radix: 16) ?? 0
        case let s where s.hasPrefix("#"): scalar = UInt32(s.dropFirst(), radix: 10) ?? 0
        case let s: throw fail("undefined entity &\(s); (FleetKit expands no DTD entities)", at: i, .undeclaredEntity)
        }
        guard scalar != 0, let u = Unicode.Scalar(scalar) else { throw fail("invalid character reference", at: i, .invalidCharacter) }
        if append { for byte in String(Character(u)).utf8 { text.push(byte) } }
        return j + 1
    }

    // MARK: Markup

    private func markup(_ start: Int) throws -> Step {
        let p = b.p, end = b.end
        guard start + 1 < end else { return .needMore }
        switch p[start + 1] {
        case Byte.slash: return try endTag(start)
        case Byte.question: return try skip(start, until: "?>", processingInstruction: true)
        case Byte.bang:
            if matches(start, "<!--") { return try skip(start, until: "-->") }
            if matches(start, "<![CDATA[") {
                guard !open.isEmpty else { throw fail("CDATA outside the root element", at: start, sawRoot ? .extraContent : .empty) }
                return try skip(start, until: "]]>", cdata: true)
            }
            if matches(start, "<!DOCTYPE") { return try doctype(start) }
            guard start + 9 < end else { return .needMore }
            throw fail("unexpected markup '<!'", at: start)
        default: return try startTag(start)
        }
    }

    private func matches(_ i: Int, _ s: StaticString) -> Bool {
        guard i + s.utf8CodeUnitCount <= b.end else { return false }
        return memcmp(b.p + i, s.utf8Start, s.utf8CodeUnitCount) == 0
    }

    /// Comments, processing instructions and CDATA: passes to the terminator, counting lines.
    private func skip(_ start: Int, until terminator: StaticString, processingInstruction: Bool = false, cdata: Bool = false) throws -> Step {
        let p = b.p, end = b.end, t0 = terminator.utf8Start[0], tn = terminator.utf8CodeUnitCount
        var i = start + (cdata ? 9 : 2)
        while true {
            guard i + tn <= end else { return .needMore }
            let c = p[i]
            if c == t0, memcmp(p + i, terminator.utf8Start, tn) == 0 { break }
            if c == Byte.newline { line += 1 }
            i += 1
        }
        if cdata, capturing { text.append(p + start + 9, i - start - 9) }
        if processingInstruction, refusesProcessingInstructionsWithoutData,
           !UnsafeBufferPointer(start: p + start + 2, count: i - start - 2).contains(where: Byte.isSpace) {
            throw fail("a processing instruction without data (<?name?>)", at: start, .processingInstructionWithoutData)
        }
        if processingInstruction, matches(start, "<?xml"), start + 5 < end, Byte.isSpace(p[start + 5]) {
            // The declaration is read by the same code as the ISO/AEMP prolog guard's, and the
            // names by the same table (XMLByteEncoding), so both readers agree on what a
            // declaration says; this reader decodes text itself, so it takes only UTF-8 and Latin-1.
            if let name = XMLPrologGuard.declaredEncoding(Array(UnsafeBufferPointer(start: p + start, count: i - start))[...]) {
                switch XMLByteEncoding.textDecoding(declared: name) {
                case .utf8?: break
                case .latin1?: latin1 = true
                case nil: throw fail("the file declares encoding \(name.prefix(40)); FleetKit reads GPX in UTF-8 or ISO-8859-1", at: start)
                }
            }
        }
        b.pos = i + tn
        return .skipped
    }

    /// A DOCTYPE is tolerated only without entity declarations (`XMLDoctypeRule.allowWithoutEntities`,
    /// the rule set shared with the ISO/AEMP prolog guard); it is never read otherwise.
    private func doctype(_ start: Int) throws -> Step {
        guard !sawRoot else { throw fail("DOCTYPE after the root element", at: start, .extraContent) }
        switch XMLDoctypeRule.allowWithoutEntities.judge(b.p, from: start, end: b.end) {
        case .needMore: return .needMore
        case let .skip(to, newlines):
            line += newlines
            b.pos = to
            return .skipped
        case let .refused(reason, at, newlines):
            line += newlines
            throw fail(reason, at: at)
        }
    }

    private func endTag(_ start: Int) throws -> Step {
        let p = b.p, end = b.end
        var i = start + 2
        // Fast path: the name of the open element followed by `>`; otherwise scan to find out.
        if let top = open.last {
            let length = names.count - top.nameStart
            if start + 3 + length <= end, p[start + 2 + length] == Byte.gt, memcmp(names.p + top.nameStart, p + start + 2, length) == 0 {
                b.pos = start + 3 + length
                pop()
                return .event(.end)
            }
        }
        while i < end, !endsName(p[i]) { i += 1 }
        let nameEnd = i
        while i < end, isSpace(p[i]) { if p[i] == Byte.newline { line += 1 }; i += 1 }
        guard i < end else { return .needMore }
        var closing: String { b.string(start + 2, nameEnd) }
        guard p[i] == Byte.gt else { throw fail("malformed closing tag </\(closing)", at: start, .tagNotClosed) }
        guard let top = open.last else { throw fail("closing tag </\(closing)> without an open element", at: start, .extraContent) }
        let length = names.count - top.nameStart
        guard length == nameEnd - start - 2, memcmp(names.p + top.nameStart, p + start + 2, length) == 0 else {
            throw fail("closing tag </\(closing)> does not match <\(name(top.nameStart))> opened at line \(top.line)", at: start, .endTagMismatch, columnAt: i + 1)
        }
        b.pos = i + 1
        pop()
        return .event(.end)
    }

    private func pop() {
        let top = open.pop()
        names.truncate(top.nameStart)
        if bindings.count > top.bindings { bindings.removeSubrange(top.bindings...) }
        defaultNS = top.defaultNS
    }

    private func startTag(_ start: Int) throws -> Step {
        let p = b.p, end = b.end, cls = classes
        var i = start + 1
        var lines = 0
        while i < end, cls[Int(p[i])] & XMLClass.endsName == 0 { i += 1 }
        guard i < end else { return .needMore }
        let nameEnd = i
        guard nameEnd > start + 1 else { throw fail("'<' not followed by an element name (write &lt;)", at: start, .nameRequired) }
        attributes.truncate(0)
        var selfClosing = false
        while true {
            while i < end, isSpace(p[i]) { if p[i] == Byte.newline { lines += 1 }; i += 1 }
            guard i < end else { return .needMore }
            let c = p[i]
            if c == Byte.gt { i += 1; break }
            if c == Byte.slash {
                guard i + 1 < end else { return .needMore }
                guard p[i + 1] == Byte.gt else { throw fail("'/' inside a tag", at: i, .tagNotClosed) }
                selfClosing = true
                i += 2
                break
            }
            let an = i
            while i < end, !endsName(p[i]) { i += 1 }
            let anEnd = i
            guard anEnd > an else { throw fail("malformed attribute in <\(b.string(start + 1, nameEnd))>", at: i, .badAttribute) }
            while i < end, isSpace(p[i]) { if p[i] == Byte.newline { lines += 1 }; i += 1 }
            guard i + 1 < end else { return .needMore }
            guard p[i] == Byte.eq else { throw fail("attribute \(b.string(an, anEnd)) has no value", at: i, .badAttribute) }
            i += 1
            while i < end, isSpace(p[i]) { if p[i] == Byte.newline { lines += 1 }; i += 1 }
            guard i < end else { return .needMore }
            let q = p[i]
            guard q == Byte.quote || q == Byte.apos else { throw fail("attribute \(b.string(an, anEnd)) value is not quoted", at: i, .badAttribute) }
            i += 1
            let vs = i
            while i < end, p[i] != q {
                if p[i] == Byte.lt { throw fail("'<' inside an attribute value", at: i, .badAttribute) }
                if p[i] == Byte.newline { lines += 1 }
                i += 1
            }
            guard i < end else { return .needMore }
            attributes.push(XMLAttribute(nameStart: an, nameEnd: anEnd, valueStart: vs, valueEnd: i))
            i += 1
            guard i < end else { return .needMore }
            guard isSpace(p[i]) || p[i] == Byte.gt || p[i] == Byte.slash else { throw fail("attributes must be separated by spaces", at: i, .badAttribute) }
        }
        // The whole tag is in the window: now change state.
        if open.isEmpty {
            if sawRoot { throw fail("a second root element <\(b.string(start + 1, nameEnd))>", at: start, .extraContent) }
            sawRoot = true
        }
        let startLine = line
        line += lines
        tagStart = start
        tagLine = startLine
        open.push(OpenElement(nameStart: names.count, line: startLine, bindings: bindings.count, defaultNS: defaultNS))
        names.append(p + start + 1, nameEnd - start - 1)
        for a in attributes.buffer where a.name.count >= 5 && memcmp(p + a.name.lowerBound, "xmlns", 5) == 0 {
            let uri = try value(a.value)
            let ns = XMLNamespace.of(uri: uri)
            if ns == .other, !foreignURIs.contains(uri) { foreignURIs.append(uri) }
            if a.name.count == 5 { defaultNS = ns } else if p[a.name.lowerBound + 5] == Byte.colon {
                bindings.append((Array(UnsafeBufferPointer(start: p + a.name.lowerBound + 6, count: a.name.count - 6)), ns))
            }
        }
        var ns = defaultNS
        var local = (start + 1)..<nameEnd
        if let colon = UnsafeBufferPointer(start: p + start + 1, count: nameEnd - start - 1).firstIndex(of: Byte.colon) {
            ns = namespace(prefix: p + start + 1, colon)
            local = (start + 2 + colon)..<nameEnd
        }
        b.pos = i
        if selfClosing { pendingEnd = true }
        return .event(.start(ns, local: local))
    }

    /// An attribute value with entity references decoded.
    func value(_ r: Range<Int>) throws -> String {
        let p = b.p
        guard UnsafeBufferPointer(start: p + r.lowerBound, count: r.count).contains(Byte.amp) else { return string(r.lowerBound, r.upperBound) }
        let saved = text.count
        defer { text.truncate(saved) }
        var i = r.lowerBound, run = i
        while i < r.upperBound {
            if p[i] == Byte.amp {
                text.append(p + run, i - run)
                guard let after = try entity(at: i, into: true), after <= r.upperBound else { throw fail("bad entity reference in an attribute", at: i, .bareAmpersand) }
                i = after
                run = i
            } else { i += 1 }
        }
        text.append(p + run, r.upperBound - run)
        return decode(UnsafeBufferPointer(start: text.p + saved, count: text.count - saved))
    }

    func string(_ from: Int, _ to: Int) -> String {
        decode(UnsafeBufferPointer(start: b.p + from, count: to - from))
    }

    func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        latin1 ? String(bytes.map { Character(Unicode.Scalar($0)) }) : String(decoding: bytes, as: UTF8.self)
    }
}
