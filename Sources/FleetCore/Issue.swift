/// A located, coded diagnostic about one piece of input.
///
/// Importers never drop a row silently: a row that cannot be used becomes an `Issue`, and the
/// warehouse stores it as a `reject` row with the reason code, the location and the raw text, so a
/// user can see exactly what was left out and why.
public struct Issue: Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason such as `bad_date` or `duplicate_key`.
    public var reason: Reason
    /// Where in the file: `line 12`, `record 7`, `/Fleet/Equipment[3]/Location`.
    public var location: String
    /// What is wrong and, where possible, what to do about it.
    public var message: String
    /// The raw input text the issue is about, capped so a hostile row cannot bloat the warehouse.
    public var raw: String
    /// What the importer could still read of a rejected money row (its natural key, amount and
    /// time), so a later load of the same key resolves the reject and reports can list its amount.
    public var row: RejectedRow?

    public init(_ reason: Reason, at location: String, _ message: String, raw: String = "") {
        self.reason = reason
        self.location = Issue.showingNUL(location)
        self.message = Issue.showingNUL(message)
        self.raw = Issue.cap(Issue.showingNUL(raw))
    }

    /// A NUL written as `\x00` (as `ControlText` shows it). SQLite text bound through GRDB ends
    /// at the first NUL, so a raw line holding one would otherwise be stored cut short, silently;
    /// every other character, controls included, is kept as the file had it.
    static func showingNUL(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s == "\u{0}" { out.append(contentsOf: "\\x00".unicodeScalars) } else { out.append(s) }
        }
        return String(out)
    }

    public var description: String { "\(location): \(reason.rawValue): \(message)" }

    /// The issue with what could be read of its row.
    public func with(_ row: RejectedRow?) -> Issue {
        var copy = self
        copy.row = row
        return copy
    }

    public static let rawLimit = 4096

    static func cap(_ text: String) -> String {
        text.utf8.count <= rawLimit ? text : String(text.prefix(rawLimit)) + "…"
    }

    /// Reason codes. New importers add cases here so that `fleetkit rejects` stays one vocabulary.
    public struct Reason: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        public static let missingField: Reason = "missing_field"
        public static let badDate: Reason = "bad_date"
        public static let badNumber: Reason = "bad_number"
        public static let badValue: Reason = "bad_value"
        public static let badVIN: Reason = "bad_vin"
        public static let duplicateKey: Reason = "duplicate_key"
        public static let unknownAsset: Reason = "unknown_asset"
        public static let unknownDriver: Reason = "unknown_driver"
        public static let identityConflict: Reason = "identity_conflict"
        public static let oversizedRecord: Reason = "oversized_record"
        public static let invalidText: Reason = "invalid_text"
        public static let shortRecord: Reason = "short_record"
        public static let outOfRange: Reason = "out_of_range"
        public static let unknownColumn: Reason = "unknown_column"
        /// An identifier (unit number, VIN, PIN, vendor id, employee id, licence) holding a
        /// control character: refused, never stored as a second key (`ControlText`).
        public static let badIdentifier: Reason = "bad_identifier"
    }
}
