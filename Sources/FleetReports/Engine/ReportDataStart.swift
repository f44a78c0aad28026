import FleetCore
import FleetWarehouse

/// A kind of data a report's figures rest on, and where in the warehouse it starts.
///
/// Completeness from the start of a period: a cost report for 2026-Q3 over a warehouse whose
/// fuel starts on 2026-10-01 showed only the maintenance history that happens to go back that
/// far, and a DVIR report for the same quarter "0 violations, 0 days missing", both complete.
/// So a report names the kinds it needs (`Report.needs`); a period that starts more than
/// `ReportCompleteness.quietDays` before a kind's first day is partial ("no DVIRs before
/// 2026-10-01"), and the headlines resting on that kind are left out: unknown, never 0.
public enum ReportDataKind: String, Sendable, CaseIterable {
    case fuel, dvir, telematics

    /// How a reason names the data: "no fuel purchases before 2026-10-01".
    var label: String {
        switch self {
        case .fuel: return "fuel purchases"
        case .dvir: return "DVIRs"
        case .telematics: return "telematics (engine hours or distance)"
        }
    }

    /// The first local day the warehouse holds data of this kind; nil when it holds none.
    func firstDay(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> CivilDate? {
        switch self {
        case .fuel: return try reader.value("SELECT MIN(at) FROM fuel_purchase", as: Int64.self).map { request.zone.day(of: $0) }
        case .dvir: return try reader.value("SELECT MIN(signed_at) FROM dvir", as: Int64.self).map { request.zone.day(of: $0) }
        case .telematics: return try reader.value("SELECT MIN(day) FROM asset_day", as: String.self).flatMap { CivilDate($0) }
        }
    }
}

/// A kind of data a report needs, with the headlines that are unknown without it (nil: all).
public struct ReportDataNeed: Sendable {
    public var kind: ReportDataKind
    public var headlines: [String]?

    public init(_ kind: ReportDataKind, headlines: [String]? = nil) {
        self.kind = kind
        self.headlines = headlines
    }
}
