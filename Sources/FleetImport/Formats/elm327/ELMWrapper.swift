import Foundation

/// The ELM327 conversation inside a program's debug log, recognised from the text of the line
/// (never the file name).
///
/// Why: the serial traffic most users can hand over is what a library or script printed while it
/// talked to the adapter, not a terminal capture:
/// - python-OBD (`obd.logger.setLevel(DEBUG)`): `[obd.elm327] write: b'0902\r'`,
///   `[obd.elm327] read: b'7E8 10 14 49 02 01 31 47 31\r7E8 21 …\r\r>'`; older versions
///   `[obd] read: 'ATZ\rELM327 v2.1\r'`; with Python's default format
///   `DEBUG:obd.elm327:read: b'…'`. The bytes are Python's repr: quoted, with `\r` written as two
///   characters (the line parser splits at those).
/// - scripts that print `DEBUG RECEIVED [26] 7E8 10 14 …` (the count is the length of the text,
///   and the rest of the answer follows on the next lines as they came) or `DEBUG SENT …`.
/// Other lines of such a log (`[obd.obd] Connected Successfully…`, `INFO:obd.obd:…`) are the
/// library talking about itself: `isLogText` says so, and they are counted, not rejected.
enum ELMWrapper {
    /// The traffic a wrapped line carries, nil when the line is no wrapper line.
    static func payload(_ text: Substring) -> Substring? {
        if let p = pythonOBD(text) { return p }
        if let p = debugPrint(text) { return p }
        if let p = bracketed(text) { return p }
        return afterLevel(text)
    }

    /// `DEBUG 41 0C 1A F8`, `obd - DEBUG - 7E8 03 41 0D 32`: traffic after a level word, read,
    /// so that `isLogText` (which takes any line with a level word for chatter) never drops it.
    private static func afterLevel(_ text: Substring) -> Substring? {
        var rest = text
        for _ in 0..<4 {
            rest = rest.drop { $0 == " " || $0 == "-" || $0 == ":" || $0 == "|" }
            guard let end = rest.firstIndex(where: { $0 == " " || $0 == ":" || $0 == "|" }) else { return nil }
            let word = rest[..<end]
            rest = rest[end...]
            guard levelWords.contains(String(word)) else { continue }
            rest = rest.drop { $0 == " " || $0 == "-" || $0 == ":" || $0 == "|" }
            return recognised(rest) ? rest : nil
        }
        return nil
    }

    private static let levelWords: Set<String> = ["DEBUG", "INFO", "WARNING", "WARN", "CRITICAL"]

    /// Whether the first piece of a text is something the line parser recognises.
    private static func recognised(_ rest: Substring) -> Bool {
        let first = rest.split(whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == ">" }).first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        return !first.isEmpty && ELMLineParser.classify(ELMLineParser.stripDirection(first)) != .unknown
    }

    /// `[RX] 41 0C 1A F8`, `[ECU] 7E8 03 41 0D 32`: a tag without a dot (logger names have one,
    /// `obd.elm327`) before traffic the line parser recognises. Such a line is traffic, never
    /// chatter: counting it as a log message would drop its data without a reject.
    private static func bracketed(_ text: Substring) -> Substring? {
        guard text.hasPrefix("["), let close = text.firstIndex(of: "]"), text.distance(from: text.startIndex, to: close) <= 40,
              !text[..<close].contains(".") else { return nil }
        let rest = text[text.index(after: close)...].drop { $0 == " " || $0 == "\t" || $0 == ":" }
        return recognised(rest) ? rest : nil
    }

    /// A logger's line about something else than traffic: `[name] text` or `LEVEL:name:text`.
    static func isLogText(_ text: Substring) -> Bool {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text.distance(from: text.startIndex, to: close) <= 40 {
            let name = text[text.index(after: text.startIndex)..<close]
            return !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
                && name.contains { $0.isLetter && !$0.isHexDigit }
        }
        for level in ["DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"] where text.hasPrefix(level) { return true }
        // `INFO obd.obd …`, `obd.obd - INFO - …`: a level word among the first words (never an
        // ELM status: those are whole lines such as `ERROR` or `BUS ERROR`).
        let words = text.prefix(60).split(whereSeparator: { $0 == " " || $0 == "-" || $0 == ":" || $0 == "|" }).prefix(4)
        return words.count > 1 && words.contains { ["DEBUG", "INFO", "WARNING", "WARN", "CRITICAL"].contains(String($0)) }
    }

    /// `… read: b'…'` / `… write: b'…'` (python-OBD). The prefix is the logger's.
    private static func pythonOBD(_ text: Substring) -> Substring? {
        for verb in ["read:", "write:"] {
            guard let r = text.range(of: verb) else { continue }
            // The verb ends the logger's prefix: `[obd.elm327] `, `DEBUG:obd.elm327:`, or nothing.
            let prefix = text[..<r.lowerBound]
            guard prefix.isEmpty || prefix.hasSuffix(" ") || prefix.hasSuffix(":") || prefix.hasSuffix("]") else { continue }
            var rest = text[r.upperBound...].drop { $0 == " " }
            if rest.hasPrefix("b'") || rest.hasPrefix("b\"") { rest = rest.dropFirst() }
            if let q = rest.first, q == "'" || q == "\"" {
                rest = rest.dropFirst()
                if rest.last == q { rest = rest.dropLast() }
            }
            return rest
        }
        return nil
    }

    private static let levels = ["DEBUG", "INFO", "TRACE", "VERBOSE"]
    private static let verbs = ["RECEIVED", "RECEIVING", "SENT", "SENDING"]

    /// `DEBUG RECEIVED [26] …`, `DEBUG SENT: …`, `RECEIVED [4] …`.
    private static func debugPrint(_ text: Substring) -> Substring? {
        var t = text
        // Only the first words can match: upper-casing a whole long line per word tried was the
        // dearest part of sniffing a binary file as text.
        let head = String(t.prefix(12)).uppercased()
        for level in levels where head.hasPrefix(level + " ") || head.hasPrefix(level + ":") {
            t = t.dropFirst(level.count).drop { $0 == " " || $0 == ":" }
            break
        }
        let rest = String(t.prefix(12)).uppercased()
        guard let verb = verbs.first(where: { rest.hasPrefix($0) }) else { return nil }
        t = t.dropFirst(verb.count)
        guard t.isEmpty || t.first == " " || t.first == ":" || t.first == "[" else { return nil }
        t = t.drop { $0 == " " || $0 == ":" }
        if t.hasPrefix("["), let close = t.firstIndex(of: "]"), t[t.index(after: t.startIndex)..<close].allSatisfy(\.isNumber) {
            t = t[t.index(after: close)...]
        }
        return t.drop { $0 == " " }
    }

    /// Whether an ASCII line may be a wrapper or log line (a cheap test on the bytes, so the hex
    /// lines that make up nearly all of a plain transcript skip the String work).
    static func mayWrap(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard start < line.count else { return false }
        let first = line[start]
        // `[name]`, `DEBUG…`, `INFO…`, `RECEIVED…`, `SENT…`, `TRACE…`, `VERBOSE…`, `WARNING:`, `ERROR:`, `CRITICAL:`,
        // or python-OBD's verbs and level words anywhere (`obd.obd - INFO - …`, `x read: b'…'`):
        // every line `payload` or `isLogText` accepts passes here, so both parsers agree.
        if first == 0x5B || first == 0x44 || first == 0x49 || first == 0x52 || first == 0x53 || first == 0x54 || first == 0x56
            || first == 0x57 || first == 0x45 || first == 0x43 { return true }
        return contains(line, start, "read:") || contains(line, start, "write:") || contains(line, start, "DEBUG")
            || contains(line, start, "INFO") || contains(line, start, "WARN") || contains(line, start, "CRITICAL")
    }

    private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard line.count - start >= n else { return false }
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        var i = start
        while i + n <= line.count {
            if line[i] == w[0] {
                var k = 1
                while k < n, line[i + k] == w[k] { k += 1 }
                if k == n { return true }
            }
            i += 1
        }
        return false
    }
}
