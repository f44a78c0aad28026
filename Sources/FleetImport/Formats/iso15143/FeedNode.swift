import Foundation

/// One element of a telematics feed read whole: an XML element or a JSON object, with its
/// attributes, text and children.
///
/// Feeds are streamed and only small elements (an ISO `Location`, an `EquipmentHeader`, one
/// time-series item) are built as trees, so memory is bounded by the element, not the file.
/// The same tree stands for XML and JSON, so one mapping reads both syntaxes of a feed.
struct FeedNode {
    enum Syntax: Sendable { case xml, json }

    /// The local name: a namespace prefix is never part of it, because vendors put the same
    /// elements under the ISO namespace, the JCMA namespace or none.
    var name: String
    var attributes: [(name: String, value: String)] = []
    var text = ""
    var children: [FeedNode] = []
    var syntax: Syntax
    /// The line where the element starts, when the reader knows it.
    var line: Int?
    /// The element was larger than the reader's limit; its content was dropped.
    var oversized = false

    init(name: String, syntax: Syntax, line: Int? = nil) {
        self.name = name
        self.syntax = syntax
        self.line = line
    }

    /// The first child with this name. Exact spelling first, then ignoring ASCII case: a
    /// lookup for an optional field misses often, and the exact pass keeps that cheap.
    func child(_ name: String) -> FeedNode? {
        children.first { $0.name == name } ?? children.first { FeedNode.sameName($0.name, name) }
    }

    func children(named name: String) -> [FeedNode] {
        children.filter { FeedNode.sameName($0.name, name) }
    }

    func attribute(_ name: String) -> String? {
        attributes.first { FeedNode.sameName($0.name, name) }?.value
    }

    /// The trimmed text of a child element or, failing that, an attribute of that name; nil
    /// when neither exists. Empty text is returned as "" so callers can count placeholders.
    func value(_ name: String) -> String? {
        if let c = child(name) { return c.trimmedText }
        return attribute(name).map(FeedValues.trim)
    }

    var trimmedText: String { FeedValues.trim(text) }

    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            let lp = p >= 65 && p <= 90 ? p + 32 : p
            let lq = q >= 65 && q <= 90 ? q + 32 : q
            if lp != lq { return false }
        }
        return true
    }

    /// The element as compact text in its own syntax, for a reject's `raw` column.
    func render(limit: Int = 2048) -> String {
        var out = ""
        syntax == .xml ? renderXML(into: &out, limit: limit) : renderJSON(into: &out, limit: limit)
        return out.utf8.count > limit ? String(out.prefix(limit)) + "…" : out
    }

    private func renderXML(into out: inout String, limit: Int) {
        guard out.utf8.count <= limit else { return }
        out += "<" + name
        for a in attributes { out += " \(a.name)=\"\(a.value)\"" }
        out += ">" + trimmedText
        for c in children { c.renderXML(into: &out, limit: limit) }
        out += "</" + name + ">"
    }

    private func renderJSON(into out: inout String, limit: Int) {
        guard out.utf8.count <= limit else { return }
        if children.isEmpty, attributes.isEmpty {
            out += "\"\(name)\": \"\(text)\""
            return
        }
        out += "\"\(name)\": {"
        var first = true
        for c in children {
            if !first { out += ", " }
            first = false
            c.renderJSON(into: &out, limit: limit)
        }
        out += "}"
    }
}

/// Where an element is, written like XPath: `/Fleet/Equipment[3]/Location`.
struct FeedPath: CustomStringConvertible, Sendable {
    struct Step: Sendable {
        var name: String
        var index: Int?
    }
    var steps: [Step] = []

    func appending(_ name: String, index: Int? = nil) -> FeedPath {
        var p = self
        p.steps.append(Step(name: name, index: index))
        return p
    }

    var description: String {
        steps.isEmpty ? "/" : steps.map { s in s.index.map { "\(s.name)[\($0)]" } ?? s.name }.map { "/" + $0 }.joined()
    }
}
