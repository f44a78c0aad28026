import Foundation

/// Byte-level helpers for the OBD app logs' per-field work.
///
/// Why: `trimmingCharacters(in:)`, `lowercased()` and `replacingOccurrences` go through
/// Foundation's NSString bridge on Linux and cost microseconds per call; a Torque log calls
/// them for every field of every row. For ASCII text these helpers give the same answer on the
/// UTF-8 bytes (CharacterSet.whitespaces holds only space and tab below 0x80); callers fall back
/// to the Foundation code when a field has a non-ASCII byte.
enum OBDText {
    /// The text without leading and trailing spaces and tabs; nil when it is not all ASCII.
    static func trimmedASCII(_ text: String) -> Substring? {
        let u = text.utf8
        var start = u.startIndex, end = u.endIndex
        for b in u where b >= 0x80 { return nil }
        while start < end, u[start] == 0x20 || u[start] == 0x09 { start = u.index(after: start) }
        while end > start {
            let before = u.index(before: end)
            guard u[before] == 0x20 || u[before] == 0x09 else { break }
            end = before
        }
        return Substring(text[start..<end])
    }

    /// `trimmingCharacters(in: .whitespaces)`, fast for ASCII.
    static func trimmed(_ text: String) -> String {
        if let t = trimmedASCII(text) { return t.count == text.utf8.count ? text : String(t) }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Whether the text is empty after trimming spaces and tabs (and, for non-ASCII text, the
    /// other Unicode spaces `CharacterSet.whitespaces` holds).
    static func isBlank(_ text: String) -> Bool {
        for b in text.utf8 {
            if b == 0x20 || b == 0x09 { continue }
            if b >= 0x80 { return text.trimmingCharacters(in: .whitespaces).isEmpty }
            return false
        }
        return true
    }
}
