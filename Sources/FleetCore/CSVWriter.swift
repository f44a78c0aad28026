/// Writes RFC 4180 CSV text: fields quoted when needed, CRLF line ends, and text that a
/// spreadsheet would run as a formula neutralised.
public enum CSVWriter {
    /// A text cell starting with `=`, `+`, `-`, `@`, tab or CR is a formula to Excel and
    /// LibreOffice (CSV injection). Such text gets a leading apostrophe, which spreadsheets show
    /// as text; numbers are written by `number(_:)` and never reach this guard.
    public static func text(_ value: String) -> String {
        var v = value
        if let first = v.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { v = "'" + v }
        return quoted(v)
    }

    public static func number(_ value: String) -> String { value }

    /// A cell whose type is not known: a plain decimal number (`-12.5`) is written as a number,
    /// anything else as guarded text.
    public static func cell(_ value: String) -> String {
        isPlainNumber(value) ? value : text(value)
    }

    static func isPlainNumber(_ v: String) -> Bool {
        var u = Substring(v)
        if u.hasPrefix("-") { u = u.dropFirst() }
        let parts = u.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    static func quoted(_ v: String) -> String {
        if v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == ";" }) {
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return v
    }

    public static func line(_ fields: [String]) -> String { fields.joined(separator: ",") + "\r\n" }
}

import Foundation
