import FleetCore
import FleetReports

/// The periods a nightly run refreshes, relative to the run's local day.
enum NightlyPeriod {
    case monthToDate, previousMonth, quarterToDate, previousQuarter, month(Int, Int)

    static func parse(_ text: String) -> NightlyPeriod? {
        switch text {
        case "month_to_date": return .monthToDate
        case "previous_month": return .previousMonth
        case "quarter_to_date": return .quarterToDate
        case "previous_quarter": return .previousQuarter
        default:
            let p = text.split(separator: "-")
            guard p.count == 2, let y = Int(p[0]), let m = Int(p[1]), (1...12).contains(m), (1971...2200).contains(y) else { return nil }
            return .month(y, m)
        }
    }

    /// The report period on local day `today`. Month to date ends today (the data so far).
    func period(today: CivilDate) -> ReportPeriod {
        switch self {
        case .monthToDate:
            let from = CivilDate(year: today.year, month: today.month, day: 1)!
            return ReportPeriod(from: from, to: today, label: ReportPeriod.month(today.year, today.month).label)
        case .previousMonth:
            let first = CivilDate(year: today.year, month: today.month, day: 1)!.adding(months: -1)
            return .month(first.year, first.month)
        case .quarterToDate:
            let q = (today.month - 1) / 3 + 1
            let from = CivilDate(year: today.year, month: (q - 1) * 3 + 1, day: 1)!
            return ReportPeriod(from: from, to: today, label: ReportPeriod.quarter(today.year, q).label)
        case .previousQuarter:
            let start = CivilDate(year: today.year, month: ((today.month - 1) / 3) * 3 + 1, day: 1)!.adding(months: -3)
            return .quarter(start.year, (start.month - 1) / 3 + 1)
        case let .month(y, m):
            return .month(y, m)
        }
    }
}
