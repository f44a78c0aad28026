/// JSON string quoting (RFC 8259), once for every target: the JSON reader's paths and the raw
/// text it keeps of a rejected record (FleetImport), and the JSON report writer (FleetReports).
public enum JSONText {
    /// `s` as a JSON string literal: `"` and `\` escaped, `\n`, `\r`, `\t` by name, the other
    /// control characters and U+2028/U+2029 (line and paragraph separators, which JavaScript
    /// reads as line ends) as `\u` with four lowercase hex digits. Other text stays UTF-8.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}", "\u{2029}": out += "\\u" + hex4(scalar.value)
            default:
                if scalar.value < 0x20 { out += "\\u" + hex4(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    private static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: 4 - h.count) + h
    }
}
