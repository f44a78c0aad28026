import Foundation
import FleetCore

/// What an `XMLElementDriver` reports. Containers (the root, an ISO `Equipment`) arrive as
/// start and end events; elements the consumer chooses to collect arrive whole, as a tree.
/// Names are local names: a namespace prefix is never part of them, because vendors put the
/// same elements under the ISO namespace, the JCMA namespace or none.
protocol XMLElementConsumer: AnyObject {
    /// Whether the element that starts at `path` (`depth` 1 is the root) is read whole.
    func shouldCollect(name: String, depth: Int) -> Bool
    func didStartContainer(name: String, attributes: [String: String], path: FeedPath, depth: Int) throws
    func didCollect(_ node: FeedNode, path: FeedPath) throws
    func didEndContainer(name: String, path: FeedPath, depth: Int) throws
}

/// Streams an XML file through FleetKit's byte tokenizer (`XMLTokenizer`, the one GPX reads
/// with), keeping a stack of open elements with their sibling counts for XPath-like locations,
/// and building trees only for the elements the consumer collects.
///
/// Memory is bounded by the largest collected element, which is capped (`maxNodes`,
/// `maxTextBytes`) so one hostile element cannot grow without limit either: past a cap the
/// element is marked oversized and its content dropped, and the consumer rejects it.
///
/// Safety: the prolog is checked by `XMLPrologGuard` first (any DOCTYPE and unreadable
/// encodings are refused); UTF-16 and 8-bit files are converted to UTF-8 by `XMLTranscoder`;
/// no entity but the predefined ones and character references is ever expanded. Beyond what
/// the tokenizer checks, this reader refuses what a conforming parser refuses in a feed: an
/// undeclared namespace prefix, an attribute given twice, control characters, invalid UTF-8
/// in the text it reads, and a processing instruction without data (refused since these
/// feeds were first read; see FORMATS.md). The first problem fails the file with its line and
/// column, and nothing after it reaches the consumer.
final class XMLElementDriver {
    static let maxNodes = 10_000
    static let maxTextBytes = 1 << 20
    static let hint = "Nothing of this file was imported. Re-export or re-download it completely and import it again."

    private let url: URL
    private let consumer: XMLElementConsumer
    private var names: [String] = []
    private var siblingCounts: [[String: Int]] = [[:]]
    private var paths: [FeedPath] = [FeedPath()]
    private var openLines: [Int] = []
    /// Nodes being built, innermost last; empty when not inside a collected element.
    private var building: [FeedNode] = []
    private var nodes = 0
    private var textBytes = 0

    init(url: URL, consumer: XMLElementConsumer) {
        self.url = url
        self.consumer = consumer
    }

    func run() throws {
        let source = try XMLPrologGuard.check(url)
        let bytes: XMLBytes
        if let from = XMLTranscoder.source(family: source.family, declared: source.declared) {
            bytes = XMLBytes(transcoder: try XMLTranscoder(url: url, source: from.name, skip: from.skip))
        } else {
            bytes = try XMLBytes(url: url)
        }
        bytes.refusesControlCharacters = true
        let tokenizer = XMLTokenizer(bytes)
        tokenizer.refusesProcessingInstructionsWithoutData = true
        do { try drive(tokenizer) } catch let f as XMLFailure { throw error(f) }
    }

    private func drive(_ t: XMLTokenizer) throws {
        while true {
            switch try t.next() {
            case let .start(ns, local):
                try flushText(t)
                try start(t, ns, local)
            case .end:
                try flushText(t)
                try end(t)
            case .eof:
                return
            }
            t.capturing = !building.isEmpty
        }
    }

    // MARK: Elements

    private func start(_ t: XMLTokenizer, _ ns: XMLNamespace, _ local: Range<Int>) throws {
        guard ns != .unbound else { throw failure(t, "an undeclared namespace prefix", .undeclaredPrefix) }
        let name = try text(t, local, at: t.line)
        let line = t.line
        if !building.isEmpty {
            // Inside a collected element: only the collected element has a location, so its
            // children skip the sibling count and path (most elements of a feed are such children).
            names.append(name)
            openLines.append(line)
            siblingCounts.append([:])
            paths.append(paths[paths.count - 1])
            var node = FeedNode(name: name, syntax: .xml, line: line)
            nodes += 1
            let attributes = try self.attributes(t)
            if nodes <= Self.maxNodes {
                if !attributes.isEmpty { node.attributes = attributes.sorted { $0.0 < $1.0 } }
            } else {
                building[0].oversized = true
            }
            building.append(node)
            return
        }
        let n = (siblingCounts[siblingCounts.count - 1][name] ?? 0) + 1
        siblingCounts[siblingCounts.count - 1][name] = n
        let depth = names.count + 1
        let path = paths[paths.count - 1].appending(name, index: depth == 2 || n > 1 ? n : nil)
        names.append(name)
        openLines.append(line)
        siblingCounts.append([:])
        paths.append(path)
        let attributes = try self.attributes(t)
        if consumer.shouldCollect(name: name, depth: depth) {
            nodes = 1
            textBytes = 0
            var node = FeedNode(name: name, syntax: .xml, line: line)
            node.attributes = attributes.sorted { $0.0 < $1.0 }
            building.append(node)
        } else {
            var dictionary: [String: String] = [:]
            for (k, v) in attributes { dictionary[k] = v }
            try consumer.didStartContainer(name: name, attributes: dictionary, path: path, depth: depth)
        }
    }

    private func end(_ t: XMLTokenizer) throws {
        let path = paths.removeLast()
        let name = names.removeLast()
        openLines.removeLast()
        siblingCounts.removeLast()
        if let node = building.popLast() {
            if building.isEmpty {
                try consumer.didCollect(node, path: path)
            } else if !building[0].oversized {
                building[building.count - 1].children.append(node)
            }
        } else {
            try consumer.didEndContainer(name: name, path: path, depth: names.count + 1)
        }
    }

    /// Text and CDATA read since the last tag belong to the innermost element being built.
    private func flushText(_ t: XMLTokenizer) throws {
        let count = t.text.count
        guard count > 0 else { return }
        defer { t.text.truncate(0) }
        guard !building.isEmpty else { return }
        textBytes += count
        if textBytes > Self.maxTextBytes { building[0].oversized = true }
        guard !building[0].oversized else { return }
        let bytes = t.text.buffer
        guard var s = String(validating: bytes, as: UTF8.self) else { throw failure(t, "text that is not valid UTF-8", .invalidCharacter) }
        // XML reads CR LF and a lone CR as one LF.
        if bytes.contains(13) { s = s.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") }
        building[building.count - 1].text += s
    }

    /// The start tag's attributes by local name, namespace declarations left out, each value
    /// with its references decoded and its whitespace normalised as XML does for attribute values.
    private func attributes(_ t: XMLTokenizer) throws -> [(name: String, value: String)] {
        let p = t.b.p
        let all = t.attributes
        var out: [(name: String, value: String)] = []
        for k in 0..<all.count {
            let a = all[k]
            let qname = UnsafeBufferPointer(start: p + a.nameStart, count: a.name.count)
            for j in 0..<k where all[j].name.count == a.name.count && memcmp(p + all[j].nameStart, p + a.nameStart, a.name.count) == 0 {
                throw failure(t, "an attribute given twice", .duplicateAttribute)
            }
            if qname.starts(with: "xmlns".utf8), qname.count == 5 || qname[5] == Byte.colon { continue }
            var localStart = a.nameStart
            if let colon = qname.firstIndex(of: Byte.colon) {
                let prefix = qname[..<colon]
                if !prefix.elementsEqual("xml".utf8), t.namespace(prefix: p + a.nameStart, colon) == .unbound {
                    throw failure(t, "an undeclared namespace prefix", .undeclaredPrefix)
                }
                localStart = a.nameStart + colon + 1
            }
            let raw = UnsafeBufferPointer(start: p + a.valueStart, count: a.value.count)
            guard String(validating: raw, as: UTF8.self) != nil else { throw failure(t, "an attribute value that is not valid UTF-8", .invalidCharacter) }
            var value = try t.value(a.value)
            if raw.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 }) {
                value = String(value.replacingOccurrences(of: "\r\n", with: " ").map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
            }
            out.append((try text(t, localStart..<a.nameEnd, at: t.line), value))
        }
        return out
    }

    /// Window bytes as a string; invalid UTF-8 fails the file.
    private func text(_ t: XMLTokenizer, _ r: Range<Int>, at line: Int) throws -> String {
        guard let s = String(validating: UnsafeBufferPointer(start: t.b.p + r.lowerBound, count: r.count), as: UTF8.self) else {
            throw failure(t, "a name that is not valid UTF-8", .invalidCharacter)
        }
        return s
    }

    // MARK: Errors

    /// A failure found at the last tag the tokenizer returned.
    private func failure(_ t: XMLTokenizer, _ message: String, _ kind: XMLFailure.Kind) -> XMLFailure {
        XMLFailure(message, offset: t.b.offset(t.b.pos), line: t.line, column: t.column(at: t.b.pos), kind: kind)
    }

    private func error(_ f: XMLFailure) -> FleetError {
        let location = f.column > 0 ? "line \(f.line), column \(f.column)" : "line \(f.line)"
        if f.kind == .processingInstructionWithoutData {
            return FleetError.unreadable(file: url.path, location: "line \(f.line)",
                reason: "the XML has a processing instruction without data (<?name?>), which FleetKit does not accept in an ISO 15143-3 or AEMP 1.2 feed; the file was not read",
                hint: "Nothing of this file was imported; remove the processing instruction or re-export the file.")
        }
        return FleetError.unreadable(file: url.path, location: location, reason: Self.explain(f, open: names, lines: openLines), hint: Self.hint)
    }

    /// Plain words for what is wrong, and where the document was cut off when elements were
    /// still open.
    static func explain(_ f: XMLFailure, open: [String], lines: [Int]) -> String {
        let what: String
        switch f.kind {
        case .empty: what = "the document is empty"
        case .extraContent: what = "there is content after the end of the root element"
        case .unclosed: what = "the document ends while elements are still open"
        case .truncated: what = open.isEmpty ? "the document ends inside a tag (truncated?)" : "the document ends inside a tag"
        case .invalidCharacter: what = "it contains a character that XML does not allow"
        case .bareAmpersand: what = "an '&' starts an entity reference that is not finished; write a literal & as &amp;"
        case .undeclaredEntity: what = "it refers to an entity that is not declared"
        case .badAttribute: what = "an attribute is malformed"
        case .duplicateAttribute: what = "an element has the same attribute twice"
        case .nameRequired: what = "a name is missing where the XML needs one"
        case .tagNotClosed: what = "a tag is not closed with '>'"
        case .endTagMismatch: what = "an end tag does not match its start tag"
        case .undeclaredPrefix: what = "it uses a namespace prefix that is not declared"
        case .processingInstructionWithoutData, .other: what = f.message
        }
        var text = "the XML is not well-formed: \(what)"
        if !open.isEmpty {
            let shown = zip(open, lines).suffix(3).map { "<\($0.0)> (line \($0.1))" }.joined(separator: ", ")
            text += "; still open at that point: \(shown); if the file was cut off, it is truncated"
        }
        return text
    }

    /// The name after the last `:`, searched on the UTF-8 bytes.
    static func localName(_ qualified: String) -> String {
        guard let colon = qualified.utf8.lastIndex(of: UInt8(ascii: ":")) else { return qualified }
        return String(qualified[qualified.utf8.index(after: colon)...])
    }
}
