import Foundation
import FleetCore

/// Finds rates in an fx-rates file that are probably quoted the other way round.
///
/// The inverse of a rate lies on the other side of 1 (1.3734 CAD per USD is 0.7281 USD per
/// CAD), and a currency's rate does not cross from one side to the other between neighbouring
/// days unless it trades near parity. So, per currency, a rate outside the parity band (within
/// 5 % of 1, where an inversion is undetectable and costs under 10 %) is a probable inversion
/// when more of the file's other rates of that currency within a calendar month either side
/// lie on the other side of 1 than on its own side. Two rates that are each other's inverse
/// with no third to tell them apart are both refused: which one is right cannot be known.
///
/// The file is read twice: this pass keeps only counts per currency and month, so memory does
/// not grow with the rows. Only the file's own rates are compared, never the warehouse's, so
/// the outcome does not depend on the order files are imported in.
struct FxInversionCheck {
    /// Rates within this factor of 1 are never judged.
    static let parityBand = 1.05

    private struct Tally {
        var above = 0
        var below = 0
        var aboveExample: (day: CivilDate, rate: Double)?
        var belowExample: (day: CivilDate, rate: Double)?
    }

    private struct Key: Hashable {
        var currency: String
        var month: Int
    }

    private var tallies: [Key: Tally] = [:]

    /// Reads the file once, keeping what `check` needs; rows `read` refuses are left to the
    /// importing pass, which rejects them with their reason.
    init(_ input: InputFile, columns: [String: [String]], read: (Row) throws -> (CivilDate, String, Double)) throws {
        var reader: any RecordSource
        do {
            reader = try RecordSources.open(input)
            guard let first = try reader.next() else { return }
            let header = CSVHeader(first.fields, aliases: columns)
            let convention = DecimalNumber.Convention.forDelimiter(reader.delimiter)
            let keys = KeyLedger(), choices = ChoiceMemo()
            while let record = try reader.next() {
                if record.oversized || record.hadInvalidUTF8 { continue }
                let row = Row(record: record, header: header, convention: convention, zone: input.zone, currency: input.currency, seenKeys: keys, choices: choices)
                guard let (day, currency, rate) = try? read(row), let side = Self.side(rate) else { continue }
                let key = Key(currency: currency, month: day.year * 12 + day.month)
                var t = tallies[key] ?? Tally()
                if side > 0 {
                    t.above += 1
                    if t.aboveExample == nil { t.aboveExample = (day, rate) }
                } else {
                    t.below += 1
                    if t.belowExample == nil { t.belowExample = (day, rate) }
                }
                tallies[key] = t
            }
        } catch let e where e is CSVError || e is XLSXError {
            // The importing pass meets the same error and refuses the file with its location.
            tallies = [:]
        }
    }

    /// +1 above the parity band, -1 below it, nil inside it.
    static func side(_ rate: Double) -> Int? {
        rate > parityBand ? 1 : rate < 1 / parityBand ? -1 : nil
    }

    /// Throws when `perBase` is a probable inversion of its currency's neighbouring rates.
    func check(currency: String, day: CivilDate, perBase: Double, base: String) throws {
        guard let side = Self.side(perBase) else { return }
        var same = -1, other = 0
        var example: (day: CivilDate, rate: Double)?
        let month = day.year * 12 + day.month
        // The row's own month first, so the example quoted is the nearest one.
        for m in [month, month - 1, month + 1] {
            guard let t = tallies[Key(currency: currency, month: m)] else { continue }
            same += side > 0 ? t.above : t.below
            other += side > 0 ? t.below : t.above
            example = example ?? (side > 0 ? t.belowExample : t.aboveExample)
        }
        guard other > same else { return }
        let neighbour = example.map { " (\(Self.text($0.rate)) on \($0.day))" } ?? ""
        throw RowError(.badValue, "\(Self.text(perBase)) \(currency) per \(base) is about the inverse of \(other == 1 ? "the other \(currency) rate" : "\(other) of the other \(currency) rates") within a month\(neighbour): "
            + "probably quoted the other way round. If it is \(base) per \(currency), move it to a column \(base)_per_unit; if it is right, the other rates are not")
    }

    static func text(_ rate: Double) -> String {
        var s = String(format: "%.6f", rate)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
