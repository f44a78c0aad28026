import Foundation
import FleetCore

/// Refuses, before any element is read, ISO 15143-3 / AEMP 1.2 XML that FleetKit does not
/// read: any DOCTYPE, and any encoding outside the families `XMLByteEncoding` lets through.
/// These rules were written while libxml2 read these feeds (the history below); the byte
/// tokenizer reads them now, and the rules are kept as promises.
///
/// WHY a DOCTYPE is refused whole: Foundation's `XMLParser` on Linux ran libxml2 with entity
/// substitution on and does not pass entity declarations to its delegate, so the delegate
/// cannot see an entity-expansion bomb or an external entity coming; with external entities
/// off, libxml2 silently drops an external entity's text instead of failing, which would load a
/// quietly altered file. Finding where an internal subset ends means parsing comments, PIs and
/// quoted strings the way libxml2 does (a `]` inside a comment once ended it early and let a
/// 1.3 MB entity bomb through: 150 s of CPU, exit 0). No telematics feed needs a DOCTYPE, so
/// the first `<!DOCTYPE` refuses the file, whatever follows it.
///
/// WHY the encoding is decided here: libxml2 2.9 dereferences NULL when the first bytes or the
/// declaration switch it to some encodings (UTF-32, EBCDIC, UTF-7, unknown names). The first
/// four bytes give the family (`XMLByteEncoding.sniff`); an XML declaration (`<?xml` followed
/// by any XML whitespace: space, tab, CR or LF) may only name an encoding of that family.
///
/// A DOCTYPE can only appear before the root element, so only the prolog is scanned (at most
/// `prologLimit` bytes; UTF-16 files are transcoded first).
enum XMLPrologGuard {
    static let prologLimit = 1 << 20
    static let hint = "Nothing of this file was imported; re-export the file as UTF-8."

    /// Returns the file's encoding family and the encoding its XML declaration names (nil
    /// without one), which `XMLTranscoder.source` needs to hand the tokenizer UTF-8.
    @discardableResult
    static func check(_ url: URL) throws -> (family: XMLByteEncoding, declared: String?) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading (\(error.localizedDescription))")
        }
        defer { try? handle.close() }
        var raw = Data()
        while true {
            let chunk = try handle.read(upToCount: 64 * 1024) ?? Data()
            raw.append(chunk)
            let atEnd = chunk.isEmpty
            if raw.count < 4 && !atEnd { continue }
            let family = XMLByteEncoding.sniff([UInt8](raw.prefix(4)))
            if case let .unreadable(name) = family {
                throw FleetError.unreadable(file: url.path, location: "line 1",
                    reason: "the XML is encoded in \(name), which FleetKit does not read (it reads UTF-8, UTF-16 and the common 8-bit encodings such as ISO-8859-1 and windows-1252)",
                    hint: hint)
            }
            let text = family.utf8(raw)
            switch scan(text, family: family, atEnd: atEnd, file: url.path) {
            case .done: return (family, declared(text))
            case let .refused(error): throw error
            case .needMore:
                if atEnd { return (family, declared(text)) }   // the file ends inside its prolog: the parser reports that
                if raw.count >= prologLimit {
                    throw FleetError.unreadable(file: url.path, location: nil,
                        reason: "the XML prolog (before the root element) is longer than \(prologLimit / 1024) KiB",
                        hint: "A telematics export starts with its root element; check that this is the file the vendor sent.")
                }
            }
        }
    }

    private enum Outcome { case done, needMore, refused(Error) }

    /// The prefix as UTF-8: UTF-16 files (by BOM or by `<?` in 16-bit form) are transcoded.
    static func utf8(_ data: Data) -> [UInt8] {
        XMLByteEncoding.sniff([UInt8](data.prefix(4))).utf8(data)
    }

    static func isXMLSpace(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }

    /// At the end of the file an unfinished declaration is still checked: libxml2 reads what
    /// there is of it when its input ends, encoding switch included.
    private static func scan(_ u: [UInt8], family: XMLByteEncoding, atEnd: Bool, file: String) -> Outcome {
        var i = 0
        if u.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func line(_ at: Int) -> Int { u[..<min(at, u.count)].reduce(1) { $1 == 10 ? $0 + 1 : $0 } }
        func has(_ s: String, at j: Int) -> Bool {
            let p = Array(s.utf8)
            return j + p.count <= u.count && Array(u[j..<(j + p.count)]).map { $0 | 0x20 } == p.map { $0 | 0x20 }
        }
        func find(_ s: String, from j: Int) -> Int? {
            let p = Array(s.utf8)
            var k = j
            while k + p.count <= u.count {
                if u[k] == p[0], Array(u[k..<(k + p.count)]) == p { return k }
                k += 1
            }
            return nil
        }
        while i < u.count {
            let c = u[i]
            if isXMLSpace(c) { i += 1; continue }
            guard c == UInt8(ascii: "<") else { return .done }   // text before the root: the parser reports it
            if has("<?", at: i) {
                let e = find("?>", from: i + 2)
                if e == nil && !atEnd { return .needMore }
                let end = e ?? u.count
                if has("<?xml", at: i), i + 5 < u.count, isXMLSpace(u[i + 5]) || u[i + 5] == UInt8(ascii: "?"),
                   let refused = encoding(u[i..<end], family: family, line: line(i), file: file) {
                    return refused
                }
                guard let e else { return .needMore }
                i = e + 2
            } else if has("<!--", at: i) {
                guard let e = find("-->", from: i + 4) else { return .needMore }
                i = e + 3
            } else if has("<!DOCTYPE", at: i) {
                return .refused(doctype(u, at: i, line: line(i), file: file))
            } else if i + 9 < u.count || atEnd {
                return .done   // the root element starts (or other markup the parser reports)
            } else {
                return .needMore   // perhaps a `<!DOCTYPE` cut by the chunk
            }
        }
        return .needMore
    }

    /// The refusal of a DOCTYPE (`XMLDoctypeRule.refuseAny`, the rule set shared with the GPX
    /// tokenizer); its words only choose the message (an entity declaration, an external DTD,
    /// or a DOCTYPE as such), never whether the file is read.
    private static func doctype(_ u: [UInt8], at start: Int, line: Int, file: String) -> Error {
        let verdict = u.withUnsafeBufferPointer { XMLDoctypeRule.refuseAny.judge($0.baseAddress!, from: start, end: $0.count) }
        // `refuseAny` refuses every DOCTYPE; the fallback words only keep this total.
        var reason = "the XML has a DOCTYPE; FleetKit refuses any DOCTYPE"
        if case let .refused(why, _, _) = verdict { reason = why }
        return FleetError.unreadable(file: file, location: "line \(line)", reason: reason, hint: XMLDoctypeRule.refusalHint)
    }

    /// The `encoding` of an XML declaration (`<?xml version="1.0" encoding="…"`), refused when
    /// it is not one FleetKit reads for bytes of this family.
    private static func encoding(_ declaration: ArraySlice<UInt8>, family: XMLByteEncoding, line: Int, file: String) -> Outcome? {
        guard let name = declaredEncoding(declaration), let why = family.refusal(declared: name) else { return nil }
        return .refused(FleetError.unreadable(file: file, location: "line \(line)",
            reason: "the XML declares the encoding '\(name.prefix(40))', which FleetKit does not read here (\(why); it reads UTF-8, UTF-16 and the common 8-bit encodings such as ISO-8859-1 and windows-1252)",
            hint: hint))
    }

    /// The encoding named by the XML declaration at the very start (after a UTF-8 BOM), the only
    /// place where libxml2 reads one.
    static func declared(_ u: [UInt8]) -> String? {
        let start = u.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard u.count > start + 5, u[start..<(start + 5)].elementsEqual("<?xml".utf8), isXMLSpace(u[start + 5]) else { return nil }
        var end = start + 5
        while end + 1 < u.count, !(u[end] == UInt8(ascii: "?") && u[end + 1] == UInt8(ascii: ">")) { end += 1 }
        return declaredEncoding(u[start..<min(end + 1, u.count)])
    }

    /// The value of the `encoding` pseudo-attribute: `encoding`, XML whitespace, `=`, XML
    /// whitespace, a quoted name. An `encoding` without a quoted value gives the empty name
    /// (refused), so no spelling of the declaration slips past.
    static func declaredEncoding(_ declaration: ArraySlice<UInt8>) -> String? {
        let text = Array(declaration)
        let key = Array("encoding".utf8)
        guard let k = (0...max(0, text.count - key.count)).first(where: { text.count >= key.count && Array(text[$0..<($0 + key.count)]) == key }) else { return nil }
        var i = k + key.count
        while i < text.count, isXMLSpace(text[i]) || text[i] == UInt8(ascii: "=") { i += 1 }
        guard i < text.count, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { return "" }
        let quote = text[i]
        let value = text[(i + 1)...].prefix { $0 != quote }
        return String(decoding: value, as: UTF8.self)
    }
}
