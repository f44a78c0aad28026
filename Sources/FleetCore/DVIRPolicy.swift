/// Which days a fleet owes an end-of-day DVIR (49 CFR 396.11(a)(1); docs/METRICS.md, "DVIR
/// compliance"). A warehouse setting (`WarehouseSettings`) that reports read, so it lives below
/// both.
///
/// - `law`: 396.11(a)(1) as amended in 2014 for property carriers: the report at the completion
///   of each day's work is required only on a day a defect or deficiency was found or reported.
/// - `passenger`: 396.11(a)(1) for passenger carriers: a report every day the vehicle operated.
/// - `every_day`: a company policy stricter than the law for property carriers: a report every
///   day the vehicle operated.
///
/// A pre-trip inspection (396.13) never takes the place of the end-of-day report.
public enum DVIRPolicy: String, Sendable, CaseIterable, Codable {
    case law, passenger, everyDay = "every_day"

    /// The stored or typed name; `defects_only`, the name warehouses stored before `law` and
    /// `passenger` existed, reads as `law` (it meant the same rule).
    public init?(text: String) {
        if text == "defects_only" { self = .law } else { self.init(rawValue: text) }
    }

    /// The names a user can give, for help and errors.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// Whether an end-of-day report is owed for a day the vehicle operated.
    /// - parameter defectFound: a defect was reported on the vehicle that day.
    public func requiresEndOfDayReport(defectFound: Bool) -> Bool {
        switch self {
        case .law: return defectFound
        case .passenger, .everyDay: return true
        }
    }

    /// The policy and the rule it follows, as every page of a DVIR report names it.
    public var statement: String {
        switch self {
        case .law: return "law: 49 CFR 396.11(a)(1) as amended 2014 (property carrier): an end-of-day report on each day a defect is found"
        case .passenger: return "passenger: 49 CFR 396.11(a)(1) (passenger carrier): an end-of-day report every day the vehicle operates"
        case .everyDay: return "every_day: company policy: an end-of-day report every day the vehicle operates"
        }
    }
}
