/// XML Schema `xs:duration` values as seconds, for hour meters that AEMP 1.2 feeds (and
/// Trackunit's classic ISO feed) send as `PT13H28M30S`, `P1DT7H2M3S` or `P13DT0H25M59.999S`.
///
/// Days are 24 hours here: a service meter counts running time, not calendar days, so no
/// daylight-saving day applies. Years and months have no fixed length, so a duration that
/// uses them is refused rather than guessed at (zero years or months are fine), and so is a
/// negative one: a cumulative meter cannot be below zero.
enum XSDuration {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case syntax(String)
        case calendarUnits(String)
        case negative(String)

        var description: String {
            switch self {
            case let .syntax(s): return "'\(s)' is not an xs:duration such as PT13H28M30S or P1DT7H2M3S"
            case let .calendarUnits(s): return "'\(s)' counts years or months, which have no fixed length in hours"
            case let .negative(s): return "'\(s)' is negative; a meter cannot run backwards"
            }
        }
    }

    /// True when the text looks like a duration (starts with P or -P), as opposed to decimal hours.
    static func looksLikeDuration(_ text: String) -> Bool {
        let t = text.utf8.first == UInt8(ascii: "-") ? text.dropFirst() : Substring(text)
        return t.first == "P" || t.first == "p"
    }

    static func seconds(_ text: String) throws(Problem) -> Double {
        let s = FeedValues.trim(text)
        var u = Array(s.utf8)
        var negative = false
        if u.first == UInt8(ascii: "-") { negative = true; u.removeFirst() }
        guard u.first == UInt8(ascii: "P") else { throw .syntax(s) }
        var i = 1
        var inTime = false
        var total = 0.0
        var components = 0
        var lastRank = 0
        var calendar = false
        while i < u.count {
            if u[i] == UInt8(ascii: "T") {
                guard !inTime, i + 1 < u.count else { throw .syntax(s) }
                inTime = true
                lastRank = 3
                i += 1
                continue
            }
            var j = i
            while j < u.count, (u[j] >= 48 && u[j] <= 57) || u[j] == UInt8(ascii: ".") { j += 1 }
            guard j > i, j < u.count, let n = Double(String(decoding: u[i..<j], as: UTF8.self)) else { throw .syntax(s) }
            let hasFraction = u[i..<j].contains(UInt8(ascii: "."))
            let designator = u[j]
            let rank: Int
            switch (designator, inTime) {
            case (UInt8(ascii: "Y"), false): rank = 1; calendar = calendar || n != 0
            case (UInt8(ascii: "M"), false): rank = 2; calendar = calendar || n != 0
            case (UInt8(ascii: "D"), false): rank = 3; total += n * 86_400
            case (UInt8(ascii: "H"), true): rank = 4; total += n * 3_600
            case (UInt8(ascii: "M"), true): rank = 5; total += n * 60
            case (UInt8(ascii: "S"), true): rank = 6; total += n
            default: throw .syntax(s)
            }
            // Components come in order, once each; only seconds may have a fraction.
            guard rank > lastRank, !hasFraction || rank == 6 else { throw .syntax(s) }
            lastRank = rank
            components += 1
            i = j + 1
        }
        guard components > 0, u.last != UInt8(ascii: "T") else { throw .syntax(s) }
        if calendar { throw .calendarUnits(s) }
        if negative && total != 0 { throw .negative(s) }
        return total
    }
}
