import Foundation

/// Makes each hostile class from a real file of a format, so that every format gets every
/// class without a fixture per format and class (the format-specific classes come from the same
/// real file: a DOCTYPE put into its XML, nesting put into its JSON).
enum Hostile {
    /// The hostile bytes, or nil where the class does not apply: a photo has no text to hold
    /// invalid UTF-8 or an oversized value (a huge image is the OCR memory budget's case,
    /// FleetOCRTests' OCRDecompressionBombTests).
    static func make(_ kind: HostileClass, from good: Data, name: String) -> Data? {
        let ext = (name as NSString).pathExtension.lowercased()
        let binary = ["png", "jpg", "jpeg", "tif", "tiff"].contains(ext)
        switch kind {
        case .empty:
            return Data()
        case .truncated:
            // CSV has no end marker: a cut at a row boundary is a shorter export, and a short
            // last row reads its missing trailing fields as empty (exporters drop them). What
            // shows a cut is a quoted field left open, so the last row is cut inside one.
            return ext == "csv" ? cutInQuotedField(good) : good.prefix(good.count * 2 / 3)
        case .binaryGarbage:
            var state: UInt64 = 0x5EED
            return Data((0..<4096).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
        case .invalidText:
            return binary ? nil : inserting(Data([0xC3, 0x28, 0xFF]), into: good)
        case .oversizedValue:
            return binary ? nil : inserting(Data(repeating: UInt8(ascii: "A"), count: 2 << 20), into: good)
        case .xmlEntity:
            var text = String(decoding: good, as: UTF8.self)
            let doctype = "<!DOCTYPE root [<!ENTITY x \"boom\">]>\n"
            if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
                text.insert(contentsOf: "\n" + doctype, at: end.upperBound)
            } else {
                text = doctype + text
            }
            return Data(text.utf8)
        case .jsonDeepNesting:
            var text = String(decoding: good, as: UTF8.self)
            guard let brace = text.firstIndex(of: "{") else { return nil }
            text.insert(contentsOf: "\"nested\": " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + ", ",
                        at: text.index(after: brace))
            return Data(text.utf8)
        }
    }

    /// `bytes` put inside a word or number past the middle of the file (inside a value, not
    /// between two), so the class lands in data the importer reads.
    static func inserting(_ bytes: Data, into good: Data) -> Data {
        let b = [UInt8](good)
        func word(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) }
        var i = b.count / 2
        while i < b.count, !(word(b[i]) && word(b[i - 1])) { i += 1 }
        if i >= b.count { i = b.count / 2 }
        return Data(b[..<i]) + bytes + Data(b[i...])
    }

    /// The file with its last row cut inside a quoted field that is never closed.
    static func cutInQuotedField(_ good: Data) -> Data {
        var lines = String(decoding: good, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { lines.removeLast() }
        guard let last = lines.popLast(), let d = last.firstIndex(where: { $0 == "," || $0 == ";" }) else { return good.prefix(good.count / 2) }
        let after = last.index(after: d)
        let cut = after < last.endIndex && last[after] == "\"" ? String(last[...after]) + "cu" : String(last[...d]) + "\"cu"
        return Data((lines + [cut]).joined(separator: "\n").utf8)
    }
}
