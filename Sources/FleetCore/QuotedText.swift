/// Input quoted in a message, cut to a few hundred characters.
///
/// Messages go to stderr, logs and the nightly job's run record every night: a 20 MB config
/// value or field echoed whole fills them. The cut keeps the start (what a reader recognises)
/// and says how long the whole was, so nothing is hidden about its size.
public enum QuotedText {
    /// Characters of a quoted value kept in a message.
    public static let limit = 200

    /// `text` itself when at most `limit` characters, else its first `limit` and the length.
    public static func cut(_ text: String, limit: Int = QuotedText.limit) -> String {
        var index = text.startIndex
        var kept = 0
        while kept < limit, index < text.endIndex { text.formIndex(after: &index); kept += 1 }
        guard index < text.endIndex else { return text }
        return String(text[..<index]) + "… (\(text.count) characters in all)"
    }
}
