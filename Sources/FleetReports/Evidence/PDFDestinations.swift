import Foundation

/// The page each named destination of a printed PDF lands on: how the evidence pack learns
/// which page each of its sections starts on, for the page numbers of its table of contents.
///
/// WHY read the PDF: only the print engine knows where pages break (Chromium has no CSS
/// `target-counter`). Chromium writes every link target (`<a href="#id">`) as a named
/// destination, `/Dests << /id [page 0 R /XYZ …] >>`, and its catalog, page tree and
/// destinations as plain dictionaries listed in a classic cross-reference table. This reads
/// exactly that: the cross-reference table, the catalog, the page tree in order, the
/// destinations. A PDF laid out otherwise (object streams, a name tree) gives nil, never a guess.
enum PDFDestinations {
    /// Destination name → 1-based page number; nil when the file is not laid out as above.
    static func pages(_ data: Data) -> [String: Int]? {
        let bytes = [UInt8](data)
        guard let startxref = lastIndex(of: Array("startxref".utf8), in: bytes),
              let xrefAt = integer(after: startxref + 9, in: bytes), xrefAt >= 0, xrefAt < bytes.count,
              let offsets = crossReference(bytes, at: xrefAt),
              let trailerAt = index(of: Array("trailer".utf8), in: bytes, from: xrefAt),
              let root = reference(named: "/Root", in: text(bytes, from: trailerAt, limit: 2048)),
              let catalog = object(root, bytes, offsets),
              let pagesRoot = reference(named: "/Pages", in: catalog),
              let destsRef = reference(named: "/Dests", in: catalog),
              let dests = object(destsRef, bytes, offsets)
        else { return nil }
        // The pages in order: a depth-first walk of /Kids, bounded against a cyclic tree.
        var order: [Int: Int] = [:]
        var stack = [pagesRoot], visited = 0
        while let node = stack.popLast() {
            visited += 1
            guard visited <= 1_000_000, let body = object(node, bytes, offsets) else { return nil }
            if let kids = kids(body) { stack.append(contentsOf: kids.reversed()) } else { order[node] = order.count + 1 }
        }
        // "/name [12 0 R /XYZ …]" pairs.
        var out: [String: Int] = [:]
        let scalars = Array(dests.unicodeScalars)
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "/" else { i += 1; continue }
            var j = i + 1
            while j < scalars.count, !" \n\r\t[]<>/(".unicodeScalars.contains(scalars[j]) { j += 1 }
            let name = decodeName(String(String.UnicodeScalarView(scalars[(i + 1)..<j])))
            var k = j
            while k < scalars.count, " \n\r\t".unicodeScalars.contains(scalars[k]) { k += 1 }
            if k < scalars.count, scalars[k] == "[" {
                var end = k
                while end < scalars.count, scalars[end] != "]" { end += 1 }
                let inside = String(String.UnicodeScalarView(scalars[(k + 1)..<min(end, scalars.count)]))
                if let page = firstReference(inside), let n = order[page] { out[name] = n }
                i = end
            } else {
                i = j
            }
        }
        return out
    }

    /// Object number → byte offset, from a classic table (`xref`, subsections, 20-byte entries).
    static func crossReference(_ bytes: [UInt8], at start: Int) -> [Int: Int]? {
        guard text(bytes, from: start, limit: 4) == "xref" else { return nil }
        var lines = text(bytes, from: start, limit: min(bytes.count - start, 64 * 1024 * 1024)).split(whereSeparator: { $0 == "\n" || $0 == "\r" }).dropFirst().makeIterator()
        var out: [Int: Int] = [:]
        while let header = lines.next() {
            let parts = header.split(separator: " ")
            if header.hasPrefix("trailer") { return out }
            guard parts.count == 2, let first = Int(parts[0]), let count = Int(parts[1]), first >= 0, count >= 0, count <= 10_000_000 else { return nil }
            for n in 0..<count {
                guard let entry = lines.next() else { return nil }
                let f = entry.split(separator: " ")
                guard f.count >= 3, let offset = Int(f[0]) else { return nil }
                if f[2].hasPrefix("n") { out[first + n] = offset }
            }
        }
        return nil
    }

    /// An object's text up to `stream` or `endobj` (dictionaries only; streams are not read).
    static func object(_ number: Int, _ bytes: [UInt8], _ offsets: [Int: Int]) -> String? {
        guard let at = offsets[number], at >= 0, at < bytes.count else { return nil }
        let body = text(bytes, from: at, limit: 256 * 1024)
        guard body.hasPrefix("\(number) 0 obj") else { return nil }
        let cut = [body.range(of: "endobj"), body.range(of: "stream")].compactMap { $0?.lowerBound }.min() ?? body.endIndex
        return String(body[..<cut])
    }

    static func kids(_ body: String) -> [Int]? {
        guard let start = body.range(of: "/Kids") else { return nil }
        let rest = body[start.upperBound...]
        guard let open = rest.firstIndex(of: "["), let close = rest.firstIndex(of: "]"), open < close else { return nil }
        return references(String(rest[rest.index(after: open)..<close]))
    }

    /// "/Root 5 0 R" → 5.
    static func reference(named key: String, in body: String) -> Int? {
        guard let r = body.range(of: key + " ") ?? body.range(of: key + "\n") else { return nil }
        return firstReference(String(body[r.upperBound...].prefix(40)))
    }

    static func firstReference(_ s: String) -> Int? { references(s).first }

    /// Every "n g R" in `s`, in order.
    static func references(_ s: String) -> [Int] {
        let words = s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        var out: [Int] = []
        var i = 0
        while i + 2 < words.count {
            if words[i + 2] == "R", let n = Int(words[i]), Int(words[i + 1]) != nil { out.append(n); i += 3 } else { i += 1 }
        }
        return out
    }

    /// A PDF name's `#xx` escapes.
    static func decodeName(_ s: String) -> String {
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "#"), i + 2 < u.count, let v = UInt8(String(decoding: u[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(v); i += 3
            } else {
                bytes.append(u[i]); i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func text(_ bytes: [UInt8], from: Int, limit: Int) -> String {
        guard from >= 0, from < bytes.count else { return "" }
        return String(bytes[from..<min(bytes.count, from + max(0, limit))].map { Character(Unicode.Scalar($0)) })
    }

    static func integer(after at: Int, in bytes: [UInt8]) -> Int? {
        Int(text(bytes, from: at, limit: 32).trimmingCharacters(in: .whitespacesAndNewlines).prefix { $0.isNumber })
    }

    static func index(of pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count, from >= 0 else { return nil }
        var i = from
        while i + pattern.count <= bytes.count {
            if bytes[i] == pattern[0], Array(bytes[i..<(i + pattern.count)]) == pattern { return i }
            i += 1
        }
        return nil
    }

    static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var i = bytes.count - pattern.count
        while i >= 0 {
            if bytes[i] == pattern[0], Array(bytes[i..<(i + pattern.count)]) == pattern { return i }
            i -= 1
        }
        return nil
    }
}
