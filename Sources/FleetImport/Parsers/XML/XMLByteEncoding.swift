import Foundation

/// What the first four bytes of an XML file say about its encoding (XML 1.0, appendix F).
///
/// WHY: libxml2 2.9 (Debian 12) looks at the same four bytes and, pushed a stream by
/// `XMLParser(stream:)`, dereferences NULL when they switch it to UCS-4/UTF-32 or EBCDIC
/// (SIGSEGV: the whole `fleetkit import`, and every nightly run after it, died). FleetKit
/// therefore decides the encoding itself, from these bytes, before libxml2 sees any, and
/// lets only the families it has tested through: 8-bit ASCII-compatible (UTF-8 and the
/// declared 8-bit encodings) and UTF-16 with or without a byte order mark.
enum XMLByteEncoding: Equatable {
    /// ASCII-compatible bytes; `bom` is a UTF-8 byte order mark (the file is then UTF-8 only).
    case ascii(bom: Bool)
    /// UTF-16, told by its byte order mark or by `<?` written in 16-bit units.
    case utf16(bigEndian: Bool, bom: Bool)
    /// A family FleetKit does not read; `name` says which, for the message.
    case unreadable(name: String)

    /// The family of a file that starts with `b` (its first 4 bytes, fewer only at the end of
    /// the file). Anything that is not a known signature is ASCII-compatible: libxml2 reads
    /// such bytes as UTF-8 unless the declaration says otherwise, and the declaration is checked.
    static func sniff(_ b: [UInt8]) -> XMLByteEncoding {
        func starts(_ p: [UInt8]) -> Bool { b.count >= p.count && Array(b.prefix(p.count)) == p }
        // UCS-4 / UTF-32 in all four byte orders, with a byte order mark or `<` as the first unit.
        for p: [UInt8] in [[0, 0, 0xFE, 0xFF], [0xFF, 0xFE, 0, 0], [0, 0, 0xFF, 0xFE], [0xFE, 0xFF, 0, 0],
                           [0, 0, 0, 0x3C], [0x3C, 0, 0, 0], [0, 0, 0x3C, 0], [0, 0x3C, 0, 0]] where starts(p) {
            return .unreadable(name: "UTF-32 (UCS-4)")
        }
        if starts([0x4C, 0x6F, 0xA7, 0x94]) { return .unreadable(name: "EBCDIC") }
        if starts([0xEF, 0xBB, 0xBF]) { return .ascii(bom: true) }
        if starts([0xFE, 0xFF]) { return .utf16(bigEndian: true, bom: true) }
        if starts([0xFF, 0xFE]) { return .utf16(bigEndian: false, bom: true) }
        if starts([0, 0x3C, 0, 0x3F]) { return .utf16(bigEndian: true, bom: false) }
        if starts([0x3C, 0, 0x3F, 0]) { return .utf16(bigEndian: false, bom: false) }
        return .ascii(bom: false)
    }

    /// The bytes as UTF-8 text for scanning the prolog: UTF-16 is transcoded (a byte order
    /// mark is dropped), ASCII-compatible bytes are returned as they are.
    func utf8(_ data: Data) -> [UInt8] {
        guard case let .utf16(bigEndian, bom) = self else { return [UInt8](data) }
        var units: [UInt16] = []
        units.reserveCapacity(data.count / 2)
        var i = data.startIndex + (bom ? 2 : 0)
        while i + 1 < data.endIndex {
            let (x, y) = (UInt16(data[i]), UInt16(data[i + 1]))
            units.append(bigEndian ? x << 8 | y : y << 8 | x)
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Why a declared `encoding` is not allowed for bytes of this family, or nil when it is.
    /// The names are compared without case, `-` and `_`.
    func refusal(declared name: String) -> String? {
        let n = Self.normalized(name)
        switch self {
        case .unreadable: return "FleetKit does not read it"
        case .utf16:
            return Self.utf16Names.contains(n) ? nil
                : "the file's bytes are UTF-16 but its declaration names another encoding"
        case .ascii(bom: true):
            return n == "UTF8" ? nil : "the file starts with a UTF-8 byte order mark but its declaration names another encoding"
        case .ascii(bom: false):
            if Self.utf16Names.contains(n) { return "the declaration says UTF-16 but the file's bytes are 8-bit" }
            return Self.isReadable8Bit(n) ? nil : "FleetKit does not read it"
        }
    }

    static let utf16Names: Set<String> = ["UTF16", "UTF16LE", "UTF16BE", "UCS2", "ISO10646UCS2"]

    /// How a reader that decodes text itself, byte by byte (the GPX scanner), reads the text of
    /// a file whose declaration names `name`: as UTF-8 (UTF-8 and its ASCII subset) or as
    /// Latin-1 (ISO-8859-1, and windows-1252, whose extra characters GPX never needs); nil for
    /// any other name, which that reader refuses.
    enum TextDecoding { case utf8, latin1 }

    static func textDecoding(declared name: String) -> TextDecoding? {
        switch normalized(name) {
        case "UTF8", "USASCII", "ASCII": return .utf8
        case "ISO88591", "LATIN1", "WINDOWS1252", "CP1252": return .latin1
        default: return nil
        }
    }

    static func normalized(_ name: String) -> String { name.uppercased().filter { $0 != "-" && $0 != "_" } }

    /// The ASCII-compatible encodings a declaration may name: those libxml2 switches to safely
    /// from a stream (each one tested by XMLHostileTests); anything else is refused, not tried.
    static func isReadable8Bit(_ n: String) -> Bool {
        readable8Bit.contains(n)
    }

    /// Exact names only: a made-up name such as `ISO-8859-99` is as unknown to libxml2 as `x-unknown`.
    static let readable8Bit: Set<String> = {
        var names: Set<String> = ["UTF8", "USASCII", "ASCII", "SHIFTJIS", "SJIS", "EUCJP", "EUCKR", "GB2312", "GBK", "GB18030",
                                  "BIG5", "KOI8R", "KOI8U"]
        for k in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16] { names.insert("ISO8859\(k)") }
        for k in 1...10 { names.insert("LATIN\(k)") }
        for k in 0...8 { names.insert("WINDOWS125\(k)"); names.insert("CP125\(k)") }
        return names
    }()
}
