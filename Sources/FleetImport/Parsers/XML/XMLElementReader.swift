import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import FleetCore

/// What an `XMLElementReader` reports. Containers (the root, an ISO `Equipment`) arrive as
/// start and end events; elements the consumer chooses to collect arrive whole, as a tree.
protocol XMLElementConsumer: AnyObject {
    /// Whether the element that starts at `path` (`depth` 1 is the root) is read whole.
    func shouldCollect(name: String, depth: Int) -> Bool
    func didStartContainer(name: String, namespace: String?, attributes: [String: String], path: FeedPath, depth: Int) throws
    func didCollect(_ node: FeedNode, path: FeedPath) throws
    func didEndContainer(name: String, path: FeedPath, depth: Int) throws
}

/// Streams an XML file through `XMLParser(stream:)` (libxml2's push parser reading 128 KiB at
/// a time), keeping a stack of open elements with their sibling counts for XPath-like
/// locations, and building trees only for the elements the consumer collects.
///
/// `XMLParser(data:)` needs the whole file in memory and fails past about 10 MB; the stream
/// keeps memory bounded by the largest collected element, which is capped (`maxNodes`,
/// `maxTextBytes`) so one hostile element cannot grow without limit either.
///
/// Safety: the prolog is checked by `XMLPrologGuard` first, every byte passes through
/// `XMLGuardedStream` (libxml2 reads UTF-8 only, and no PI without data), and external
/// entities are never resolved. libxml2 runs in recover mode under Foundation, so the first error is recorded and
/// nothing after it reaches the consumer; the file then fails with that error's line.
final class XMLElementReader: NSObject, XMLParserDelegate {
    static let maxNodes = 10_000
    static let maxTextBytes = 1 << 20

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
    private var consumerError: Error?
    private var xmlError: (code: Int, line: Int, column: Int, open: [String], lines: [Int])?
    private var sawRoot = false
    private weak var parser: XMLParser?

    init(url: URL, consumer: XMLElementConsumer) {
        self.url = url
        self.consumer = consumer
    }

    /// libxml2 codes that are warnings (a relative namespace URI, an unknown XML version):
    /// Foundation reports them like errors, but the document is still well-formed.
    static let warnings: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]

    func run() throws {
        let source = try XMLPrologGuard.check(url)
        let stream = try XMLGuardedStream(url: url, family: source.family, declared: source.declared)
        let parser = XMLParser(stream: stream)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.delegate = self
        self.parser = parser
        _ = parser.parse()
        if let refusal = stream.refusal { throw refusal }
        if let consumerError { throw consumerError }
        if let e = xmlError {
            throw FleetError.unreadable(file: url.path, location: "line \(e.line), column \(e.column)",
                                        reason: Self.explain(e.code, open: e.open, lines: e.lines),
                                        hint: "Nothing of this file was imported. Re-export or re-download it completely and import it again.")
        }
        if !names.isEmpty || !sawRoot {
            throw FleetError.unreadable(file: url.path, location: nil, reason: Self.explain(sawRoot ? 5 : 4, open: names, lines: openLines),
                                        hint: "Nothing of this file was imported. Re-export or re-download it completely and import it again.")
        }
    }

    private var stopped: Bool { consumerError != nil || xmlError != nil }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes: [String: String]) {
        let name = Self.localName(elementName)
        if !building.isEmpty {
            // Inside a collected element: only the collected element has a location, so its
            // children skip the sibling count and path (most elements of a feed are such children).
            names.append(name)
            openLines.append(parser.lineNumber)
            siblingCounts.append([:])
            paths.append(paths[paths.count - 1])
            guard !stopped else { return }
            var node = FeedNode(name: name, syntax: .xml, line: parser.lineNumber)
            nodes += 1
            if nodes <= Self.maxNodes {
                if !attributes.isEmpty { node.attributes = attributes.map { (Self.localName($0.key), $0.value) }.sorted { $0.0 < $1.0 } }
            } else {
                building[0].oversized = true
            }
            building.append(node)
            return
        }
        let n = (siblingCounts[siblingCounts.count - 1][name] ?? 0) + 1
        siblingCounts[siblingCounts.count - 1][name] = n
        let depth = names.count + 1
        sawRoot = true
        let path = paths[paths.count - 1].appending(name, index: depth == 2 || n > 1 ? n : nil)
        names.append(name)
        openLines.append(parser.lineNumber)
        siblingCounts.append([:])
        paths.append(path)
        guard !stopped else { return }
        if !building.isEmpty || consumer.shouldCollect(name: name, depth: depth) {
            if building.isEmpty { nodes = 0; textBytes = 0 }
            var node = FeedNode(name: name, syntax: .xml, line: parser.lineNumber)
            nodes += 1
            if nodes <= Self.maxNodes {
                node.attributes = attributes.map { (Self.localName($0.key), $0.value) }.sorted { $0.0 < $1.0 }
            } else {
                building[0].oversized = true
            }
            building.append(node)
        } else {
            attempt { try consumer.didStartContainer(name: name, namespace: namespaceURI, attributes: attributes, path: path, depth: depth) }
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let path = paths.removeLast()
        let name = names.removeLast()
        openLines.removeLast()
        siblingCounts.removeLast()
        guard !stopped else { return }
        if let node = building.popLast() {
            if building.isEmpty {
                attempt { try consumer.didCollect(node, path: path) }
            } else if !building[0].oversized {
                building[building.count - 1].children.append(node)
            }
        } else {
            attempt { try consumer.didEndContainer(name: name, path: path, depth: names.count + 1) }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { append(string) }

    func parser(_ parser: XMLParser, foundCDATA block: Data) { append(String(decoding: block, as: UTF8.self)) }

    private func append(_ text: String) {
        guard !building.isEmpty, !stopped else { return }
        textBytes += text.utf8.count
        if textBytes > Self.maxTextBytes { building[0].oversized = true }
        if !building[0].oversized { building[building.count - 1].text += text }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: Error) {
        let code = (error as NSError).code
        guard xmlError == nil, consumerError == nil, !Self.warnings.contains(code) else { return }
        xmlError = (code, parser.lineNumber, parser.columnNumber, names, openLines)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch {
            consumerError = error
            parser?.abortParsing()
        }
    }

    /// The name after the last `:`, searched on the UTF-8 bytes (a Character search was a
    /// visible cost: this runs for every element and attribute).
    static func localName(_ qualified: String) -> String {
        guard let colon = qualified.utf8.lastIndex(of: UInt8(ascii: ":")) else { return qualified }
        return String(qualified[qualified.utf8.index(after: colon)...])
    }

    /// Plain words for libxml2's error codes (xmlerror.h), and where the document was cut off
    /// when elements were still open at the end.
    static func explain(_ code: Int, open: [String], lines: [Int]) -> String {
        let what: String
        switch code {
        case 4: what = "the document is empty"
        case 5, 77:
            what = open.isEmpty ? "there is content after the end of the root element"
                : "the document ends while elements are still open"
        case 9: what = "it contains a character that XML does not allow"
        case 23, 22: what = "an '&' starts an entity reference that is not finished; write a literal & as &amp;"
        case 26: what = "it refers to an entity that is not declared"
        case 38, 39, 40, 41: what = "an attribute is malformed"
        case 42: what = "an element has the same attribute twice"
        case 68: what = "a name is missing where the XML needs one"
        case 73: what = "a tag is not closed with '>'"
        case 76: what = "an end tag does not match its start tag"
        case 89: what = "it uses recursive or exponentially expanding entities"
        case 201: what = "it uses a namespace prefix that is not declared"
        default: what = "libxml2 error \(code)"
        }
        var text = "the XML is not well-formed: \(what)"
        if !open.isEmpty {
            let shown = zip(open, lines).suffix(3).map { "<\($0.0)> (line \($0.1))" }.joined(separator: ", ")
            text += "; still open at that point: \(shown); if the file was cut off, it is truncated"
        }
        return text
    }
}
