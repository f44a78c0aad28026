/// Fits a text value into one Excel cell.
///
/// Two limits apply and they count differently. Excel holds at most 32,767 characters in a cell
/// and counts them in UTF-16 code units (an emoji outside the BMP counts two); libxlsxwriter
/// 1.1.4 refuses a string of more than 32,767 *code points* (`lxw_utf8_strlen`,
/// `LXW_ERROR_MAX_STRING_LENGTH_EXCEEDED`) and would let 32,767 emoji through, which Excel then
/// has to repair. UTF-16 units are never fewer than code points, so fitting Excel's count
/// satisfies both. The old check counted Swift `Character`s (grapheme clusters), which are fewer
/// than code points for decomposed or combining text: a 60 KB description passed it, libxlsxwriter
/// refused the cell, and that one value failed the workbook and the whole nightly report refresh.
///
/// A cut never splits a surrogate pair and, when possible, never splits a grapheme cluster (a
/// flag, a family emoji, a letter with its accents); it ends in "…" so a reader sees the value
/// was cut. The XLSX's data-quality sheet counts the cut cells; CSV and JSON keep the full text.
enum XLSXCellText {
    /// Excel's limit: "Total number of characters that a cell can contain: 32,767".
    static let maxUTF16 = 32_767
    static let ellipsis: Character = "…"

    /// The text to write and whether it was cut.
    static func fit(_ s: String, limit: Int = maxUTF16) -> (text: String, truncated: Bool) {
        // UTF-16 units never outnumber UTF-8 bytes: short values skip the count.
        if s.utf8.count <= limit || s.utf16.count <= limit { return (s, false) }
        let budget = limit - 1  // room for the ellipsis (one UTF-16 unit)
        var used = 0
        var end = s.startIndex
        for c in s {
            let n = c.utf16.count
            if used + n > budget { break }
            used += n
            end = s.index(after: end)
        }
        var out = String(s[..<end])
        if end < s.endIndex, used < budget, s[end].utf16.count > budget {
            // One grapheme cluster longer than the whole cell (a letter with thousands of
            // combining marks): cut it between scalars, which never splits a surrogate pair.
            for scalar in s[end].unicodeScalars {
                let n = scalar.utf16Count
                if used + n > budget { break }
                used += n
                out.unicodeScalars.append(scalar)
            }
        }
        out.append(ellipsis)
        return (out, true)
    }
}

private extension Unicode.Scalar {
    var utf16Count: Int { value > 0xFFFF ? 2 : 1 }
}
