import Foundation
import FleetCore

/// Refuses XML whose DOCTYPE declares entities or points at an external DTD, before the
/// parser sees a byte of it.
///
/// Foundation's `XMLParser` on Linux runs libxml2 with entity substitution on, and it does not
/// pass entity declarations to its delegate, so the delegate cannot see an entity-expansion
/// bomb or an external entity coming. With external entities off, libxml2 silently drops an
/// external entity's text instead of failing, which would load a quietly altered file. No
/// telematics feed needs a DOCTYPE, so the file is refused whole with a clear message.
///
/// A DOCTYPE can only appear before the root element, so only the prolog is scanned (at most
/// `prologLimit` bytes; UTF-16 files are transcoded first).
enum XMLPrologGuard {
    static let prologLimit = 1 << 20

    static func check(_ url: URL) throws {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading (\(error.localizedDescription))")
        }
        defer { try? handle.close() }
        var raw = Data()
        while true {
            let chunk = try handle.read(upToCount: 64 * 1024) ?? Data()
            raw.append(chunk)
            switch scan(utf8(raw), file: url.path) {
            case .done: return
            case let .refused(error): throw error
            case .needMore:
                if chunk.isEmpty { return }   // the file ends inside its prolog: the parser reports that
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
        let b = [UInt8](data.prefix(4))
        var bigEndian: Bool? = nil
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE { bigEndian = false }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF { bigEndian = true }
        if b.count >= 4, b[0] == 0x3C, b[1] == 0, b[2] == 0x3F, b[3] == 0 { bigEndian = false }
        if b.count >= 4, b[0] == 0, b[1] == 0x3C, b[2] == 0, b[3] == 0x3F { bigEndian = true }
        guard let bigEndian else { return [UInt8](data) }
        var units: [UInt16] = []
        units.reserveCapacity(data.count / 2)
        var i = data.startIndex
        while i + 1 < data.endIndex {
            let (x, y) = (UInt16(data[i]), UInt16(data[i + 1]))
            units.append(bigEndian ? x << 8 | y : y << 8 | x)
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    private static func scan(_ u: [UInt8], file: String) -> Outcome {
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
            if c == 32 || c == 9 || c == 10 || c == 13 { i += 1; continue }
            guard c == UInt8(ascii: "<") else { return .done }   // text before the root: the parser reports it
            if has("<?", at: i) {
                guard let e = find("?>", from: i + 2) else { return .needMore }
                if has("<?xml ", at: i), let refused = encoding(String(decoding: u[i..<e], as: UTF8.self), line: line(i), file: file) { return refused }
                i = e + 2
            } else if has("<!--", at: i) {
                guard let e = find("-->", from: i + 4) else { return .needMore }
                i = e + 3
            } else if has("<!DOCTYPE", at: i) {
                return doctype(u, from: i, line: line(i), file: file)
            } else if i + 1 < u.count {
                return .done   // the root element starts
            } else {
                return .needMore
            }
        }
        return .needMore
    }

    /// Reads the DOCTYPE declaration starting at `start`: an external identifier or an
    /// `<!ENTITY` anywhere in it refuses the file.
    private static func doctype(_ u: [UInt8], from start: Int, line: Int, file: String) -> Outcome {
        var i = start + 9
        var quote: UInt8? = nil
        var text: [UInt8] = []
        var depth = 0
        while i < u.count {
            let c = u[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth -= 1
            } else if c == UInt8(ascii: ">"), depth <= 0 {
                return verdict(String(decoding: text, as: UTF8.self), line: line, file: file)
            }
            text.append(c)
            i += 1
        }
        return .needMore
    }

    /// The encodings a declaration may name. libxml2 2.9 (Debian 12), pushed a stream by
    /// `XMLParser(stream:)`, dereferences NULL when a declaration switches it to some others
    /// (EBCDIC, UTF-32, UTF-7: found by `make fuzz`), so anything else is refused, not parsed.
    static func isReadableEncoding(_ name: String) -> Bool {
        let n = name.uppercased().filter { $0 != "-" && $0 != "_" }
        if ["UTF8", "USASCII", "ASCII", "UTF16", "UTF16LE", "UTF16BE", "UCS2", "SHIFTJIS", "SJIS", "EUCJP", "EUCKR", "GB2312", "GBK", "GB18030",
            "BIG5", "KOI8R", "KOI8U"].contains(n) { return true }
        return ["ISO8859", "LATIN", "WINDOWS125", "CP125"].contains { n.hasPrefix($0) && n.count <= $0.count + 2 && n.dropFirst($0.count).allSatisfy(\.isNumber) }
    }

    /// The `encoding` of an XML declaration (`<?xml version="1.0" encoding="…"`), refused when
    /// it is not one FleetKit reads.
    private static func encoding(_ declaration: String, line: Int, file: String) -> Outcome? {
        guard let r = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[r.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = String(rest.dropFirst().prefix { $0 != quote })
        guard !isReadableEncoding(name) else { return nil }
        return .refused(FleetError.unreadable(file: file, location: "line \(line)",
            reason: "the XML declares the encoding '\(name.prefix(40))', which FleetKit does not read (it reads UTF-8, UTF-16 and the common 8-bit encodings such as ISO-8859-1 and windows-1252)",
            hint: "Nothing of this file was imported; re-export the file as UTF-8."))
    }

    private static func verdict(_ declaration: String, line: Int, file: String) -> Outcome {
        let upper = declaration.uppercased()
        let hint = "Telematics feeds never need a DOCTYPE. Nothing of this file was imported; ask the sender for a plain export."
        if upper.contains("<!ENTITY") {
            return .refused(FleetError.unreadable(file: file, location: "line \(line)",
                reason: "the XML declares entities in its DOCTYPE (an entity-expansion bomb or an external entity reference); FleetKit never expands or fetches XML entities",
                hint: hint))
        }
        let beforeSubset = upper.split(separator: "[", maxSplits: 1).first.map(String.init) ?? upper
        let words = beforeSubset.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        if words.contains("SYSTEM") || words.contains("PUBLIC") {
            return .refused(FleetError.unreadable(file: file, location: "line \(line)",
                reason: "the XML DOCTYPE refers to an external DTD, which could declare entities; FleetKit never fetches external XML resources",
                hint: hint))
        }
        return .done
    }
}
