import Foundation
import FleetCore
import FleetWarehouse

/// Reading an ISO 15143-3 or AEMP 1.2 file, XML or JSON, into a sink. Both importers share it:
/// AEMP 1.2 is the older dialect of the same structure (`Make`, xs:duration hours, miles), and
/// the element mapping accepts both dialects' spellings.
enum ISOFeed {
    static func read<S: RecordSink>(_ input: InputFile, into sink: inout S) throws {
        let loader = ISOFeedLoader(sink: sink, input: input)
        defer { sink = loader.sink }
        if isJSON(input.head) {
            try ISOJSONDriver.run(input, loader: loader)
        } else {
            try XMLElementDriver(url: input.source, consumer: ISOXMLDriver(loader: loader, file: input.path)).run()
        }
        loader.finish()
    }

    /// The whole file is `[]` (whitespace and a BOM aside).
    static func isEmptyArray(_ head: Data) -> Bool {
        let bytes = head.filter { !($0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13) }
        return head.count < InputFile.headLength && bytes.elementsEqual([UInt8(ascii: "["), UInt8(ascii: "]")])
    }

    static func isJSON(_ head: Data) -> Bool {
        let first = head.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }.first
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The root element's start tag (name and the text of the tag), skipping the XML
    /// declaration, comments and a DOCTYPE. UTF-16 heads are transcoded.
    static func rootTag(_ head: Data) -> (name: String, tag: String)? {
        let bytes = XMLPrologGuard.utf8(head)
        // An XML document starts with markup after at most a byte order mark and white space;
        // anything else (a photo's bytes, a CSV) is not one, and is not decoded and searched
        // whole (every file a folder import meets is sniffed by both XML formats).
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let first = bytes[start...].first(where: { !XMLPrologGuard.isXMLSpace($0) }), first == UInt8(ascii: "<") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var rest = Substring(text)
        while let lt = rest.firstIndex(of: "<") {
            rest = rest[lt...]
            if rest.hasPrefix("<?") || rest.hasPrefix("<!") {
                let end = rest.hasPrefix("<!--") ? rest.range(of: "-->")?.upperBound : rest.firstIndex(of: ">").map { rest.index(after: $0) }
                guard let end else { return nil }
                rest = rest[end...]
                continue
            }
            guard let gt = rest.firstIndex(of: ">") else { return nil }
            let tag = String(rest[rest.index(after: lt)..<gt])
            let qname = tag.prefix { !" \t\r\n/".contains($0) }
            return (XMLElementDriver.localName(String(qname)), tag)
        }
        return nil
    }

    /// Known root elements: a fleet snapshot, a single-machine snapshot, a time-series message.
    static func isKnownRoot(_ name: String) -> Bool {
        name == "Fleet" || name == "Equipment" || name.hasSuffix("Messages") || ISOElementMapper.kind(of: name) != .unknown
            || ISOElementMapper.kind(of: String(name.dropLast())) != .unknown   // plural path names: Locations, FaultCodes
    }
}

/// The XML side: the root is a page, `Fleet/Equipment` is a container, everything else at
/// depth 2 and every child of an `Equipment` is read whole.
final class ISOXMLDriver<S: RecordSink>: XMLElementConsumer {
    let loader: ISOFeedLoader<S>
    let file: String
    private var root = ""

    init(loader: ISOFeedLoader<S>, file: String) {
        self.loader = loader
        self.file = file
    }

    func shouldCollect(name: String, depth: Int) -> Bool {
        depth > 2 || (depth == 2 && !(root == "Fleet" && name == "Equipment"))
    }

    func didStartContainer(name: String, attributes: [String: String], path: FeedPath, depth: Int) throws {
        if depth == 1 {
            guard ISOFeed.isKnownRoot(name) else {
                throw FleetError.unreadable(file: file, location: nil, reason: "the root element <\(name)> is not an ISO 15143-3 or AEMP 1.2 document",
                                            hint: "Expected <Fleet> (a snapshot), <Equipment> or a time-series <…Messages> root; pass the right --format if this is another format.")
            }
            root = name
            let snapshot = attributes.first { FeedNode.sameName($0.key, "snapshotTime") }?.value
            loader.beginPage(path, snapshotTime: snapshot)
        } else {
            loader.beginEquipment(path)
        }
    }

    func didCollect(_ node: FeedNode, path: FeedPath) throws { try loader.element(node, path: path) }

    func didEndContainer(name: String, path: FeedPath, depth: Int) throws {
        if depth == 1 { try loader.endPage() } else { try loader.endEquipment() }
    }
}

/// The JSON side. ISO 15143-3 JSON comes as `{"Fleet": {…}}` (Samsara), a page object, or an
/// array of pages (Bosch); a page holds `Equipment: [...]`, time-series items under their
/// element name, an `EquipmentHeader`, `Links`/`links`, `snapshotTime` and `version`, in any
/// key order. A first pass reads only the small page-level values (the snapshot time, the
/// header, the links), skipping everything else, so the second pass can place every element
/// as it streams past.
enum ISOJSONDriver {
    struct PageInfo {
        var snapshotTime: String?
        var header: (FeedNode, FeedPath)?
        var links: [(FeedNode, FeedPath)] = []
    }

    static func run<S: RecordSink>(_ input: InputFile, loader: ISOFeedLoader<S>) throws {
        var pages: [PageInfo] = []
        try walk(input, pages: &pages, loader: ISOFeedLoader<S>?.none)
        try walk(input, pages: &pages, loader: loader)
    }

    private static func walk<S: RecordSink>(_ input: InputFile, pages: inout [PageInfo], loader: ISOFeedLoader<S>?) throws {
        var r = try FeedJSON(url: input.source)
        var ordinal = 0
        switch try r.peekKind() {
        case .array:
            try r.beginArray()
            var i = 0
            while try r.nextElement() {
                i += 1
                if try r.peekKind() == .object {
                    try page(&r, path: FeedPath().appending("", index: i), ordinal: &ordinal, pages: &pages, loader: loader)
                } else {
                    try r.skipValue()
                }
            }
            if i == 0 { loader?.emptyPage() }
        case .object:
            try page(&r, path: FeedPath(), ordinal: &ordinal, pages: &pages, loader: loader)
        case .scalar:
            throw FleetError.unreadable(file: input.path, location: "line \(try r.line())", reason: "the JSON is not an ISO 15143-3 document (it is not an object or an array of pages)",
                                        hint: "Pass the right --format if this is another format.")
        }
        try r.finish()
    }

    private static func page<S: RecordSink>(_ r: inout FeedJSON, path: FeedPath, ordinal: inout Int, pages: inout [PageInfo],
                                            loader: ISOFeedLoader<S>?) throws {
        let me = ordinal
        ordinal += 1
        if loader == nil { pages.append(PageInfo()) }
        if let loader {
            loader.beginPage(path, snapshotTime: pages[me].snapshotTime)
            for (l, p) in pages[me].links { try loader.element(l, path: p) }
            if let (h, p) = pages[me].header { try loader.element(h, path: p) }
        }
        try r.beginObject()
        while let key = try r.nextKey() {
            let lower = key.lowercased()
            let kind = ISOElementMapper.kind(of: key)
            if lower == "fleet", try r.peekKind() == .object {
                try page(&r, path: path.appending(key), ordinal: &ordinal, pages: &pages, loader: loader)
            } else if lower == "equipment" {
                try equipment(&r, path: path.appending(key), loader: loader)
            } else if lower == "snapshottime" || lower == "version" || kind == .links || kind == .header {
                guard loader == nil else { try r.skipValue(); continue }
                if lower == "snapshottime" { pages[me].snapshotTime = try r.readScalarText(); continue }
                if lower == "version" { try r.skipValue(); continue }
                let nodes = try r.readNodes(name: key)
                for (i, n) in nodes.enumerated() {
                    let p = path.appending(key, index: nodes.count > 1 ? i + 1 : nil)
                    if kind == .header { pages[me].header = pages[me].header ?? (n, p) } else { pages[me].links.append((n, p)) }
                }
            } else if let loader {
                try items(&r, key: key, path: path, loader: loader)
            } else {
                try r.skipValue()
            }
        }
        try loader?.endPage()
    }

    private static func equipment<S: RecordSink>(_ r: inout FeedJSON, path: FeedPath, loader: ISOFeedLoader<S>?) throws {
        guard let loader else { return try r.skipValue() }
        func one(_ r: inout FeedJSON, _ p: FeedPath) throws {
            let node = try r.readNodes(name: "Equipment").first ?? FeedNode(name: "Equipment", syntax: .json)
            loader.beginEquipment(p)
            if node.oversized { try loader.element(node, path: p) }
            var seen: [String: Int] = [:]
            for child in node.children {
                let n = (seen[child.name] ?? 0) + 1
                seen[child.name] = n
                try loader.element(child, path: p.appending(child.name, index: n > 1 ? n : nil))
            }
            try loader.endEquipment()
        }
        switch try r.peekKind() {
        case .array:
            try r.beginArray()
            var i = 0
            while try r.nextElement() {
                i += 1
                if try r.peekKind() == .object { try one(&r, path.appending("", index: i).collapsed) } else { try r.skipValue() }
            }
        case .object: try one(&r, path.indexed(1))
        case .scalar: try r.skipValue()
        }
    }

    /// Time-series items (or one element of a single-machine snapshot) under their element name.
    private static func items<S: RecordSink>(_ r: inout FeedJSON, key: String, path: FeedPath, loader: ISOFeedLoader<S>) throws {
        func one(_ r: inout FeedJSON, _ p: FeedPath) throws {
            for node in try r.readNodes(name: key) { try loader.element(node, path: p) }
        }
        if try r.peekKind() == .array {
            try r.beginArray()
            var i = 0
            while try r.nextElement() {
                i += 1
                try one(&r, path.appending(key, index: i))
            }
        } else {
            try one(&r, path.appending(key))
        }
    }
}

extension FeedPath {
    /// `Equipment` then `[3]` becomes `Equipment[3]`: a JSON array's items are named after it.
    var collapsed: FeedPath {
        guard steps.count >= 2, steps[steps.count - 1].name.isEmpty else { return self }
        var p = self
        let index = p.steps.removeLast().index
        p.steps[p.steps.count - 1].index = index
        return p
    }

    func indexed(_ index: Int) -> FeedPath {
        var p = self
        if !p.steps.isEmpty { p.steps[p.steps.count - 1].index = index }
        return p
    }
}
