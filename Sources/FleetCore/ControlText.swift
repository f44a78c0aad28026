/// Characters that must not pass from a file to a terminal or into a key: C0 controls (NUL, ESC,
/// newline…), DEL, C1 controls (U+0080–U+009F, which include the 8-bit CSI) and the bidi
/// embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069), which make a text
/// display as something other than what it is.
///
/// One definition for two uses: every line the command line prints goes through `escaped`, so
/// a file's bytes cannot move the cursor, recolour or retitle the terminal or forge an output
/// line; and identifiers are refused when `firstControl` finds one, because a NUL-bearing key is
/// stored differently by different SQLite bindings and an invisible character makes a second
/// asset that looks like the first.
public enum ControlText {
    /// True for the characters described above.
    @inlinable
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The first such character in `text`, if any.
    public static func firstControl(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isControl)
    }

    /// `text` with each such character written as an escape: `\x1b` for C0, DEL and C1, `\u{202e}`
    /// for the bidi controls. Everything else, backslashes included, is left as it is. Text
    /// without any is returned unchanged (the common case costs one scan).
    public static func escaped(_ text: String) -> String {
        guard firstControl(in: text) != nil else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if isControl(s) {
                out.append(contentsOf: name(s).unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    /// How one control character is written in escaped text and in messages.
    public static func name(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16)
        return s.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
    }
}
