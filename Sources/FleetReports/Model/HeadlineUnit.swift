import Foundation
import FleetCore

/// What a headline figure (`ReportMetadata.totals`) measures, so that the HTML cards and the
/// XLSX Summary sheet print "$12,345.67", "1,204.5 mi", "83.2 %" rather than bare numbers a
/// reader must guess the unit of. JSON keeps plain numbers (DESIGN §5); its `units` and
/// `currency` keys say the same thing for machines.
///
/// The unit follows from the figure's name, which every report uses consistently; a name not
/// listed here is a count. `SampleReportGoldenTests.testEveryHeadlineHasAKnownUnit` fails when
/// a report adds a headline this table does not know, so a new money figure cannot print bare.
public enum HeadlineUnit: Sendable, Equatable {
    case count, money, distance, hours, percent

    static let moneyNames: Set<String> = Set(["total"] + CostLine.categories)
    static let hourNames: Set<String> = ["engine_hours", "idle_hours", "hours", "median_hours_to_repair"]
    static let percentNames: Set<String> = ["utilization", "pm_compliance"]
    static let countNames: Set<String> = ["assets", "active_assets", "overdue", "due_soon", "open_defects", "open_faults",
                                          "dvirs", "defects", "violations", "days_missing_dvir", "trips"]

    /// The unit of the headline `name`; nil for a name no report is known to use.
    public static func of(_ name: String) -> HeadlineUnit? {
        if moneyNames.contains(name) { return .money }
        if name == "distance" { return .distance }
        if hourNames.contains(name) { return .hours }
        if percentNames.contains(name) { return .percent }
        if countNames.contains(name) { return .count }
        return nil
    }

    /// The figure as a reader sees it, with its unit.
    public static func text(_ name: String, _ value: Double, _ metadata: ReportMetadata) -> String {
        switch of(name) ?? .count {
        case .money:
            let minor = (value * pow(10, Double(Money.minorDigits(metadata.currency)))).rounded()
            return ValueText.groupedMoney(minor: Int64(minor), currency: metadata.currency)
        case .distance: return ValueText.grouped(value, places: 1) + (metadata.units == .metric ? " km" : " mi")
        case .hours: return ValueText.grouped(value, places: 1) + " h"
        case .percent: return ValueText.grouped(value, places: 1) + " %"
        case .count: return ValueText.grouped(value, places: value == value.rounded() ? 0 : 2)
        }
    }

    /// The Excel number format of the figure: the currency or unit is part of the format, so
    /// the cell stays a number.
    public static func excelFormat(_ name: String, _ value: Double, _ metadata: ReportMetadata) -> String {
        switch of(name) ?? .count {
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
