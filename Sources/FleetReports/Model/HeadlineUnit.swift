import Foundation
import FleetCore

/// What a headline figure (`ReportMetadata.headlines`) measures, so that the HTML cards and the
/// XLSX Summary sheet print "$12,345.67", "1,204.5 mi", "83.2 %" rather than bare numbers a
/// reader must guess the unit of. JSON keeps plain numbers (docs/METRICS.md, "Format details"); its `units` and
/// `currency` keys say the same thing for machines.
///
/// WHY no table of names: the unit is declared with the figure (`ReportHeadline`), from the
/// column it totals (`init(_:)`), so a new money figure cannot print bare because a side list
/// of names was not updated.
public enum HeadlineUnit: Sendable, Equatable {
    case count, money, distance, hours, percent

    /// The unit of a figure that totals a column of this type.
    public init(_ type: ReportColumnType) {
        switch type {
        case .money: self = .money
        case .distance: self = .distance
        case .duration: self = .hours
        case .percent: self = .percent
        case .text, .integer, .decimal, .date, .datetime, .volume, .rate: self = .count
        }
    }

    /// The unit as a column or dashboard shows it beside a bare number: the currency, km or mi,
    /// h, %; nothing for a count.
    public func symbol(_ metadata: ReportMetadata) -> String {
        switch self {
        case .money: return metadata.currency
        case .distance: return metadata.units == .metric ? "km" : "mi"
        case .hours: return "h"
        case .percent: return "%"
        case .count: return ""
        }
    }

    /// The figure as a reader sees it, with its unit.
    public func text(_ value: Double, _ metadata: ReportMetadata) -> String {
        switch self {
        case .money:
            guard let minor = Checked.int64(value * pow(10, Double(Money.minorDigits(metadata.currency)))) else {
                return ValueText.grouped(value, places: Money.minorDigits(metadata.currency)) + " " + metadata.currency
            }
            return ValueText.groupedMoney(minor: minor, currency: metadata.currency)
        case .distance: return ValueText.grouped(value, places: 1) + (metadata.units == .metric ? " km" : " mi")
        case .hours: return ValueText.grouped(value, places: 1) + " h"
        case .percent: return ValueText.grouped(value, places: 1) + " %"
        case .count: return ValueText.grouped(value, places: value == value.rounded() ? 0 : 2)
        }
    }

    /// The Excel number format of the figure: the currency or unit is part of the format, so
    /// the cell stays a number.
    public func excelFormat(_ value: Double, _ metadata: ReportMetadata) -> String {
        switch self {
        case .money:
            let digits = Money.minorDigits(metadata.currency)
            return "#,##0" + (digits > 0 ? "." + String(repeating: "0", count: digits) : "") + " \"\(metadata.currency)\""
        case .distance: return "#,##0.0 \"\(metadata.units == .metric ? "km" : "mi")\""
        case .hours: return "#,##0.0 \"h\""
        case .percent: return "0.0 \"%\""
        case .count: return value == value.rounded() ? "#,##0" : "#,##0.00"
        }
    }
}
