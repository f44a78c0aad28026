/// HTML escaping for every value that reaches a report page: element text, attribute values,
/// and SVG `<text>`/`<title>` alike. Asset names, drivers and notes come from imported files, so
/// they are untrusted: `<script>` in a unit name must print as text, never run.
enum HTMLEscape {
    /// Escapes `& < > " '`, which is safe in element content and in quoted attribute values.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters other than tab/newline are not valid in HTML text.
                if c.value < 0x20, c != "\t", c != "\n" { out += " " } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// A link target from the caller: escaped, and a `javascript:`/`data:`/`vbscript:` URL is
    /// replaced by `#` so an index entry cannot run script.
    static func href(_ s: String) -> String {
        let lowered = String(s.unicodeScalars.filter { $0.value > 0x20 }).lowercased()
        for scheme in ["javascript:", "data:", "vbscript:"] where lowered.hasPrefix(scheme) { return "#" }
        return escape(s)
    }

    /// An id/fragment made only of `[A-Za-z0-9_-]`.
    static func id(_ s: String) -> String {
        String(s.unicodeScalars.map { c -> Character in
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_" ? Character(c) : "-"
        })
    }
}
