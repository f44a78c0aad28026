import Foundation
import FleetCore
import FleetWarehouse

/// `ExceptionEvent`: a violation of one of the database's rules (speeding, harsh braking, a
/// zone entered after hours) from `activeFrom` to `activeTo`. Read and counted per rule id, not
/// stored: what a rule means is defined in that MyGeotab database's `Rule` list (even Geotab's
/// stock rules are renamed and retuned per database), and no FleetKit table or report holds
/// driver-behaviour events, so a stored row would be a figure nothing reads and nobody can
/// interpret. The device reference and the times are still checked, so a damaged event is a
/// reject like any other entity (docs/FORMATS.md, `geotab`, "Not stored").
extension GeotabReader {
    func exceptionEvent(_ f: JSONFields) throws {
        let from = try f.requiredTime("activeFrom")
        if let to = try f.time("activeTo"), to < from {
            throw JSONRowError(.badValue, "the exception ends (activeTo) before it starts (activeFrom)", at: f.at("activeTo"))
        }
        _ = try deviceRef(f)
        let rule = try f.object("rule").flatMap { try $0.id("id") } ?? "(no rule id)"
        unstored.count("ExceptionEvent entities, not stored (rule violations: their meaning is in the database's Rule list, and no FleetKit report reads driver-behaviour events), by rule id", rule)
    }
}
