import Foundation
import GRDB
import FleetCore

/// Converts money into the report currency with the rate in force on the transaction's day.
///
/// `fx_rate(day, currency, per_base)` says how many units of `currency` one unit of the
/// warehouse's base currency buys from `day` on, until the next rate. An amount converts through
/// the base: `amount / per_base(from) × per_base(to)`, rounded half-to-even to the report
/// currency's minor unit, row by row, so the detail rows sum exactly to the totals. An amount
/// with no rate in force is not converted (nil): reports keep it out of totals and list it.
///
/// One rule for every converted figure: the cost report's totals and a closed month's signed
/// figures (`CountedCosts`) convert through this type, so they cannot disagree.
public struct CurrencyConverter: Sendable {
    public let base: String
    public let target: String
    /// Rates per currency, sorted by day.
    private var rates: [String: [(day: CivilDate, perBase: Double)]] = [:]

    public init(_ db: Database, base: String, target: String) throws {
        try self.init(SQLiteReader(db), base: base, target: target)
    }

    /// The rates as either engine holds them (one per currency and day: the table's key).
    public init(_ reader: any WarehouseReader, base: String, target: String) throws {
        self.base = base
        self.target = target
        try reader.forEach("SELECT day, currency, per_base FROM fx_rate ORDER BY \(reader.dialect.ascending("currency", text: true)), \(reader.dialect.ascending("day", text: true))", []) { row in
            guard let day = CivilDate(try row[0] as String) else { return }
            rates[try row[1] as String, default: []].append((day, try row[2]))
        }
    }

    public func perBase(_ currency: String, on day: CivilDate) -> Double? {
        if currency == base { return 1 }
        guard let list = rates[currency] else { return nil }
        var found: Double? = nil
        for r in list {
            if r.day <= day { found = r.perBase } else { break }
        }
        return found
    }

    /// The rate applied to convert one unit of `currency` into the report currency on `day`.
    public func rate(_ currency: String, on day: CivilDate) -> Double? {
        if currency == target { return 1 }
        guard let from = perBase(currency, on: day), let to = perBase(target, on: day) else { return nil }
        return to / from
    }

    /// The amount in the report currency, nil when no rate is in force; `Checked.Overflow` when
    /// the converted amount does not fit (a rate or amount the importers refuse, in a warehouse
    /// written some other way), never a trap.
    public func convert(minor: Int64, currency: String, on day: CivilDate) throws(Checked.Overflow) -> Int64? {
        if currency == target { return minor }
        guard let r = rate(currency, on: day) else { return nil }
        guard let converted = Money.converted(minor: minor, from: currency, to: target, rate: r) else {
            throw Checked.Overflow(what: "\(Money(minor: minor, currency: currency)) converted to \(target) at \(r) on \(day)")
        }
        return converted
    }
}
