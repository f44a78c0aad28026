/// Refuses YAML anchors (`&name`), aliases (`*name`) and merge keys (`<<`) in YAML that FleetKit
/// reads (the nightly config, mapping profiles), from the text before any YAML parser sees it.
///
/// Why: an alias repeats a node wherever it is used, so a few nested aliases or merge keys in a
/// config of under 1 KB expand to gigabytes in the decoder (an 851-byte file took 2.1 GB and
/// 43 s, then aborted). The config has no use for them: every key is written once.
///
/// The scan follows YAML's rule that `&` and `*` begin an anchor or alias only at the start of a
/// node: after indentation, `- `, `: `, `? `, or a flow `[`, `{`, `,`. Inside quoted scalars and
/// comments they are text (`vendor: "R&D"`, `# *.csv`), as in the middle of a plain scalar (`R&D`).
public enum YAMLAliasCheck {
    /// Bounds the whole config: a config is a few hundred bytes; a megabyte is no config.
    public static let maxBytes = 1 << 20

    /// The first anchor, alias or merge key: its line and a description; nil when there is none.
    public static func firstProblem(_ text: String) -> (line: Int, what: String)? {
        var line = 1
        var quote: UInt8? = nil          // the open quote character, if inside one
        var nodeStart = true             // the next non-space character starts a node
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\n") {
                line += 1
                nodeStart = true
                // A single-quoted or double-quoted scalar may span lines; the rest resets.
                i += 1
                continue
            }
            if let q = quote {
                if q == UInt8(ascii: "\"") && c == UInt8(ascii: "\\") { i += 2; continue }
                if c == q {
                    if q == UInt8(ascii: "'"), i + 1 < bytes.count, bytes[i + 1] == q { i += 2; continue }
                    quote = nil
                }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
                continue
            case UInt8(ascii: "#") where i == 0 || [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n")].contains(bytes[i - 1]):
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            default: break
            }
            if nodeStart {
                if c == UInt8(ascii: "&") { return (line, "an anchor (&)") }
                if c == UInt8(ascii: "*") { return (line, "an alias (*)") }
                if c == UInt8(ascii: "<"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<") { return (line, "a merge key (<<)") }
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c; nodeStart = false; i += 1; continue }
            }
            switch c {
            case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
                // An indicator when followed by a space or the end of the line.
                let next = i + 1 < bytes.count ? bytes[i + 1] : UInt8(ascii: "\n")
                nodeStart = next == UInt8(ascii: " ") || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\r")
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","):
                nodeStart = true
            default:
                nodeStart = false
            }
            i += 1
        }
        return nil
    }
}
