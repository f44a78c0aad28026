import Foundation

/// The one DOCTYPE/entity rule set of FleetKit's XML readers: how a `<!DOCTYPE …>` is read
/// (where it ends, whether it declares entities, whether it names an external DTD) and what
/// each format allows.
///
/// WHY one place: the ISO 15143-3 / AEMP 1.2 prolog guard and the GPX tokenizer each had their
/// own DOCTYPE scan, and the guard's once ended the internal subset at a `]` inside a comment
/// and let a 1.3 MB entity bomb through. Here comments and processing instructions inside the
/// subset are skipped whole, quoted strings are skipped, and `<!ENTITY` is found wherever else
/// it stands, for both readers.
///
/// WHY two policies: GPX exports (some older Garmin and converter tools) carry a bare
/// `<!DOCTYPE gpx>`; with no DTD ever read it cannot change a byte, so GPX skips a DOCTYPE
/// without entities. ISO/AEMP XML refused any DOCTYPE while libxml2 read it (it expanded
/// entities before its delegate saw them) and still does: no feed needs one, and the refusal
/// is a promise (the words only choose the message).
enum XMLDoctypeRule {
    /// GPX: a DOCTYPE without entity declarations is skipped; one with them refuses the file.
    case allowWithoutEntities
    /// ISO 15143-3 / AEMP 1.2: the first `<!DOCTYPE` refuses the file, whatever follows it.
    case refuseAny

    static let gpxEntityReason = "the DOCTYPE declares entities; FleetKit refuses files with entity declarations (entity expansion attacks). Remove the DOCTYPE"
    static let refusalHint = "Telematics feeds never need a DOCTYPE. Nothing of this file was imported; ask the sender for a plain export (without <!DOCTYPE …>)."
    /// How much of a DOCTYPE the `refuseAny` message looks at: the verdict is already taken.
    static let refusalWindow = 64 * 1024

    /// What a DOCTYPE holds, as far as the bytes given reach.
    struct Scan: Equatable {
        /// The index after its closing `>`; nil when the bytes end first.
        var end: Int?
        /// The index of the first `<!ENTITY` outside quotes, comments and PIs.
        var entity: Int?
        /// Newlines from the `<!DOCTYPE` to `entity` if there is one, else to `end` (or to the
        /// end of the bytes).
        var newlines: Int
        /// Its first word after the root name is `SYSTEM` or `PUBLIC`.
        var external: Bool
    }

    /// What the reader does with the DOCTYPE at `start`.
    enum Verdict: Equatable {
        /// Pass to `to`, counting `newlines`.
        case skip(to: Int, newlines: Int)
        /// The DOCTYPE runs past the bytes given: read more and ask again.
        case needMore
        /// The file is refused: `reason` says why, `at` is where (its `newlines` after `start`).
        case refused(reason: String, at: Int, newlines: Int)
    }

    /// Scans the DOCTYPE whose `<` is `p[start]` (the reader has matched `<!DOCTYPE`, in its own
    /// letter case) within `p[start..<end]`.
    static func scan(_ p: UnsafePointer<UInt8>, from start: Int, end: Int) -> Scan {
        func matches(_ i: Int, _ s: StaticString) -> Bool {
            i + s.utf8CodeUnitCount <= end && memcmp(p + i, s.utf8Start, s.utf8CodeUnitCount) == 0
        }
        var result = Scan(end: nil, entity: nil, newlines: 0, external: external(p, from: start, end: end))
        var i = start + 9, bracket = 0, quote: UInt8 = 0
        while i < end {
            let c = p[i]
            if c == Byte.newline { result.newlines += 1 }
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == Byte.quote || c == Byte.apos {
                quote = c
            } else if c == Byte.lbracket {
                bracket += 1
            } else if c == Byte.rbracket {
                bracket -= 1
            } else if c == Byte.lt, bracket > 0, matches(i, "<!--") || matches(i, "<?") {
                let terminator: StaticString = matches(i, "<?") ? "?>" : "-->"
                var k = i + 2
                while k + terminator.utf8CodeUnitCount <= end, memcmp(p + k, terminator.utf8Start, terminator.utf8CodeUnitCount) != 0 {
                    if p[k] == Byte.newline { result.newlines += 1 }
                    k += 1
                }
                guard k + terminator.utf8CodeUnitCount <= end else { return result }
                i = k + terminator.utf8CodeUnitCount
                continue
            } else if c == Byte.lt, matches(i, "<!ENTITY") {
                result.entity = i
                return result
            } else if c == Byte.gt, bracket <= 0 {
                result.end = i + 1
                return result
            }
            i += 1
        }
        return result
    }

    /// Whether the DOCTYPE's second word (after the root element's name) is SYSTEM or PUBLIC.
    private static func external(_ p: UnsafePointer<UInt8>, from start: Int, end: Int) -> Bool {
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: min(end - start, 1024)), as: UTF8.self)
        guard let word = text.dropFirst(9).split(whereSeparator: { " \t\r\n[>".contains($0) }).prefix(2).last else { return false }
        return word == "SYSTEM" || word == "PUBLIC"
    }

    /// The verdict on the DOCTYPE at `p[start]`, given the bytes up to `end`.
    func judge(_ p: UnsafePointer<UInt8>, from start: Int, end: Int) -> Verdict {
        switch self {
        case .refuseAny:
            let s = Self.scan(p, from: start, end: min(end, start + Self.refusalWindow))
            let reason: String
            if s.entity != nil {
                reason = "the XML declares entities in its DOCTYPE (an entity-expansion bomb or an external entity reference); FleetKit never expands or fetches XML entities and refuses any DOCTYPE"
            } else if s.external {
                reason = "the XML DOCTYPE refers to an external DTD, which could declare entities; FleetKit never fetches external XML resources and refuses any DOCTYPE"
            } else {
                reason = "the XML has a DOCTYPE; FleetKit refuses any DOCTYPE, because a DTD can declare entities that the XML parser would expand"
            }
            return .refused(reason: reason, at: start, newlines: 0)
        case .allowWithoutEntities:
            let s = Self.scan(p, from: start, end: end)
            if let entity = s.entity { return .refused(reason: Self.gpxEntityReason, at: entity, newlines: s.newlines) }
            guard let after = s.end else { return .needMore }
            return .skip(to: after, newlines: s.newlines)
        }
    }
}
