import Foundation

/// The one rule for a wall-clock time written without an offset, in every format that reads
/// one in the fleet's (or a device's) time zone (docs/FORMATS.md, "Local times and daylight
/// saving"):
///
/// - a time in the hour the clocks skip when they go forward (02:30 on 2026-03-08 in
///   America/Chicago) names no instant: the row is rejected (`bad_date`) with this reason, or
///   a receipt is held for review, and nothing is placed by a guess;
/// - a time in the hour that repeats when they go back names two instants: the first (the
///   daylight-saving one) is taken (`Timestamp.utc(fromLocal:in:)`) where rows need not be in
///   time order (CSV columns, profiles, receipts); an OBD log, written in time order, lets the
///   file order decide (`OBDLocalClock.resolve` in FleetImport).
public enum LocalTime {
    private static let utc = TimeZone(identifier: "UTC")!

    /// The wall-clock time of `text` as local milliseconds, when the text carries no offset and
    /// `zone` skipped that time; nil when it has an offset, is not a time, or exists in `zone`.
    public static func skipped(_ text: some StringProtocol, zone: TimeZone) -> Int64? {
        guard Timestamp.parse(text, zone: nil) == nil, let local = Timestamp.parse(text, zone: utc) else { return nil }
        return Timestamp.exists(local: local, in: zone) ? nil : local
    }

    /// What a reject or review says about a skipped time: what, where, and what to do.
    public static func skippedReason(_ text: String, local: Int64, zone: TimeZone) -> String {
        let wall = Timestamp.iso(local).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        return "'\(QuotedText.cut(text))' (\(wall)) does not exist in \(zone.identifier): the clocks went forward that night and skipped it, "
            + "so no instant can be chosen without a guess; write the time with its offset (such as -05:00) or correct it"
    }
}
