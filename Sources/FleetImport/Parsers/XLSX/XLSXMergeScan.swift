import Foundation

/// The merged ranges of a worksheet (`<mergeCell ref="A1:B2"/>`), found by scanning the part's
/// bytes for markup instead of tokenizing them.
///
/// The merges follow the rows, so finding them means passing over the whole sheet before its
/// first row is read, once for format detection and once for the import. Tokenizing every cell
/// for that (the tokenizer decodes names and attributes) made a 1 M-row sheet cost three full
/// reads (BENCHMARKS.md, row 9); this pass only inflates the part (the same zip bounds as every
/// read, `ZipEntryStream`) and looks at markup. In XML a `<` starts markup everywhere outside
/// comments, CDATA sections and processing instructions, and those are stepped over whole, so no
/// cell text can pass for a merge; inside a tag, quoted attribute values are stepped over, so a
/// `>` in a value does not end it. Only a `mergeCell` element (any prefix) is read, its `ref`
/// parsed; at most `maxMerges` are kept. A part the sheet reader then refuses (a DTD, bad XML)
/// fails there, with its reason: nothing read here is used before that read.
enum XLSXMergeScan {
    typealias Range2D = (rows: ClosedRange<Int>, columns: ClosedRange<Int>)
    static let maxMerges = 10_000
    /// Bytes of one tag kept for reading its name and `ref` (a `mergeCell` tag is short).
    static let maxTag = 4096

    private enum Mode {
        case text
        /// Just after `<`: what follows says comment, CDATA, processing instruction or tag.
        case open
        /// Inside a comment, CDATA section, processing instruction or declaration, until its
        /// terminator: `end`, its last `length` bytes read as one number, compared with as many
        /// last bytes read (`window`).
        case skip(end: UInt32, length: Int, window: UInt32)
        /// Inside a tag, until a `>` outside quotes (`quote`: the open quote, or 0).
        case tag(quote: UInt8)
    }

    static func ranges(_ archive: ZipArchive, _ part: String, limit: Int) throws -> [Range2D] {
        let entry = try archive.stream(part, limit: limit)
        let chunk = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        var out: [Range2D] = []
        var mode = Mode.text
        var tag: [UInt8] = []
        tag.reserveCapacity(maxTag)
        while true {
            let n = try entry.read(into: buffer, max: chunk)
            if n == 0 { break }
            var i = 0
            while i < n {
                let b = buffer[i]
                switch mode {
                case .text:
                    guard let p = memchr(buffer + i, Int32(Byte.lt), n - i) else { i = n; continue }
                    i = buffer.distance(to: p.assumingMemoryBound(to: UInt8.self))
                    tag.removeAll(keepingCapacity: true)
                    mode = .open
                case .open:
                    tag.append(b)
                    if tag[0] == UInt8(ascii: "?") {
                        mode = skip("?>")
                    } else if tag[0] == Byte.bang {
                        let comment = Array("!--".utf8), cdata = Array("![CDATA[".utf8)
                        if tag == comment { mode = skip("-->") }
                        else if tag == cdata { mode = skip("]]>") }
                        else if !comment.starts(with: tag), !cdata.starts(with: tag) { mode = skip(">") }
                    } else {
                        mode = .tag(quote: 0)
                        if b == Byte.gt { mode = .text; tag.removeAll(keepingCapacity: true) }
                    }
                case let .skip(end, length, window):
                    let w = (window << 8 | UInt32(b)) & (UInt32.max >> (32 - 8 * length))
                    mode = w == end ? .text : .skip(end: end, length: length, window: w)
                case let .tag(quote):
                    if quote != 0 {
                        if b == quote { mode = .tag(quote: 0) }
                        if tag.count < maxTag { tag.append(b) }
                    } else if b == Byte.gt {
                        // Most tags are cells and rows (`c r=…`, `row r=…`): a first letter other
                        // than `m`, without a prefix, is never a mergeCell.
                        if out.count < maxMerges, tag.count > 9, tag[0] == UInt8(ascii: "m") || tag.contains(Byte.colon), let r = mergeRef(tag) { out.append(r) }
                        mode = .text
                    } else {
                        if b == Byte.quote || b == Byte.apos { mode = .tag(quote: b) }
                        if tag.count < maxTag { tag.append(b) }
                    }
                }
                i += 1
            }
        }
        return out
    }

    /// The skip mode that ends after `terminator` (at most 4 bytes).
    private static func skip(_ terminator: StaticString) -> Mode {
        var v: UInt32 = 0
        for b in terminator.utf8Start..<(terminator.utf8Start + terminator.utf8CodeUnitCount) { v = v << 8 | UInt32(b.pointee) }
        return .skip(end: v, length: terminator.utf8CodeUnitCount, window: 0)
    }

    /// The range of a `mergeCell` tag's bytes (after `<`, before `>`), or nil for any other tag
    /// or a `ref` that is no `A1:B2` range within the sheet's limits.
    static func mergeRef(_ tag: [UInt8]) -> Range2D? {
        guard let nameEnd = tag.firstIndex(where: { Byte.isSpace($0) || $0 == Byte.slash }) else { return nil }
        let name = tag[..<nameEnd]
        let local = name.lastIndex(of: Byte.colon).map { name[($0 + 1)...] } ?? name
        guard local.elementsEqual("mergeCell".utf8) else { return nil }
        let text = String(decoding: tag[nameEnd...], as: UTF8.self)
        guard let m = text.range(of: #"(^|\s)ref\s*=\s*["']([A-Za-z]{1,3}[0-9]{1,7}:[A-Za-z]{1,3}[0-9]{1,7})["']"#, options: .regularExpression) else { return nil }
        let ref = text[m].drop { $0 != "\"" && $0 != "'" }.dropFirst().dropLast()
        let ends = ref.split(separator: ":").map(String.init)
        guard ends.count == 2, let c0 = XLSXSheetReader.column(of: ends[0]), let c1 = XLSXSheetReader.column(of: ends[1]),
              let r0 = Int(ends[0].drop(while: { $0.isLetter })), let r1 = Int(ends[1].drop(while: { $0.isLetter })),
              c0 <= c1, r0 <= r1, r1 <= XLSXSheetReader.maxRows else { return nil }
        return (r0...r1, c0...c1)
    }
}
