/// Identifiers are keys: an asset or a driver is found again by them in every later file. A key
/// holding a control character (`ControlText`) is refused as a `bad_identifier` row, in every
/// importer, because identity resolution checks every ref it is given (IdentityResolver and the
/// warehouse sink's drivers). Why: a NUL was stored as 3 bytes through one SQLite binding and 8
/// through another, so the same unit became two assets; an ESC or a bidi override makes a key
/// that prints like another one.
///
/// Hints (names, make, model) are not keys and are not refused; the command line escapes them
/// when it prints them.
///
/// The same holds for characters that print like others or not at all (`lookalike`): a unit
/// number `T-01` with a zero-width space, a soft hyphen, a non-breaking hyphen (U+2011) or a
/// Cyrillic `Т` made four "T-01" rows in one cost report. They are refused, never folded, since
/// a key that prints as another must be retyped where it was exported, not guessed at.
public enum IdentifierCheck {
    /// The row error for the first identifier in `fields` holding a control character or a
    /// character that prints like another or not at all, else nil.
    public static func problem(_ fields: [(label: String, value: String?)]) -> RowError? {
        for (label, value) in fields {
            guard let value else { continue }
            if let c = ControlText.firstControl(in: value) {
                return RowError(.badIdentifier, "the \(ControlText.escaped(label)) '\(ControlText.escaped(value))' holds the control character \(ControlText.name(c)); "
                                + "an identifier with control characters would be a second, invisible key, so the row is refused. Correct the value where the file was exported and import it again")
            }
            if let (c, looksLike) = lookalike(in: value) {
                return RowError(.badIdentifier, "the \(ControlText.escaped(label)) '\(escaped(value))' holds \(ControlText.name(c)) (\(c.properties.name ?? "unnamed")), which prints \(looksLike); "
                                + "it would be a second key that looks like another, so the row is refused. Retype the value where the file was exported and import it again")
            }
        }
        return nil
    }

    /// The first character of `value` that prints like another character or not at all, with
    /// what it prints as. Refused in identifiers:
    /// - invisible: format characters (zero-width space and joiners, soft hyphen, word joiner,
    ///   byte-order mark: Unicode category Cf) and every space but the ASCII one;
    /// - dashes other than `-` (hyphen U+2010, non-breaking hyphen U+2011, en and em dashes,
    ///   minus sign U+2212, and the other Unicode dashes);
    /// - full-width forms of ASCII (`Ｔ-０１`);
    /// - Cyrillic and Greek letters that look like Latin ones (`Т`, `А`, `О`, `Ο`…) in an
    ///   identifier that also holds ASCII letters or digits (a key written wholly in another
    ///   script, without ASCII letters or digits, is its own key).
    public static func lookalike(in value: String) -> (Unicode.Scalar, String)? {
        let hasASCII = value.unicodeScalars.contains { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        for s in value.unicodeScalars where !s.isASCII {
            let p = s.properties
            if p.generalCategory == .format { return (s, "as nothing") }
            if p.isWhitespace || p.generalCategory == .spaceSeparator { return (s, "as a space") }
            if p.generalCategory == .dashPunctuation || s == "\u{2212}" { return (s, "as '-'") }
            if (0xFF01...0xFF5E).contains(s.value), let ascii = Unicode.Scalar(s.value - 0xFEE0) { return (s, "as '\(ascii)'") }
            if hasASCII, let latin = latinLookalikes[s] { return (s, "as the Latin '\(latin)'") }
        }
        return nil
    }

    /// Cyrillic and Greek capitals and small letters that print as Latin ones.
    static let latinLookalikes: [Unicode.Scalar: Character] = {
        var m: [Unicode.Scalar: Character] = [:]
        let pairs: [(String, String)] = [
            ("АВЕЗІЈКМНОРСТУХЅԁаеіјорсуxһѕԛԝ", "ABE3IJKMHOPCTYXSdaeijopcyxhsqw"),   // Cyrillic
            ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοναι", "ABEZHIKMNOPTYXovai"),                         // Greek
        ]
        for (from, to) in pairs {
            for (f, t) in zip(from.unicodeScalars, to) where !f.isASCII { m[f] = t }
        }
        return m
    }()

    /// `value` with each non-ASCII character as `\u{…}`, so a message shows what the key holds.
    static func escaped(_ value: String) -> String {
        var out = ""
        for s in value.unicodeScalars {
            out += s.isASCII ? ControlText.escaped(String(s)) : "\\u{\(String(s.value, radix: 16))}"
        }
        return out
    }
}

extension AssetRef {
    /// A `bad_identifier` row error when the VIN, PIN, unit number or a vendor id (its source,
    /// type or value) holds a control character; nil when the ref is clean.
    public var identifierProblem: RowError? {
        var fields: [(label: String, value: String?)] = [("VIN", vin), ("PIN", pin), ("unit number", unitNumber)]
        for i in identifiers {
            fields.append(("vendor id source", i.source))
            fields.append(("vendor id type", i.type))
            fields.append(("\(i.source) \(i.type)", i.value))
        }
        return IdentifierCheck.problem(fields)
    }
}

extension DriverRef {
    /// A `bad_identifier` row error when the employee id, licence number or a vendor id holds a
    /// control character; nil when the ref is clean.
    public var identifierProblem: RowError? {
        var fields: [(label: String, value: String?)] = [("employee id", employeeID), ("licence number", licenseNumber)]
        for i in identifiers {
            fields.append(("vendor id source", i.source))
            fields.append(("vendor id type", i.type))
            fields.append(("\(i.source) \(i.type)", i.value))
        }
        return IdentifierCheck.problem(fields)
    }
}
