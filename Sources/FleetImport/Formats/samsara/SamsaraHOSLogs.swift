import Foundation
import FleetCore
import FleetWarehouse

/// HOS logs (`/fleet/hos/logs`): each entry of a driver's `hosLogs` is one duty-status
/// interval, stored in `hos_log` (docs/FORMATS.md, `samsara`, "HOS logs"). A `driving` interval
/// is evidence that the driver drove on its local days (docs/METRICS.md, "Driver
/// qualification").
///
/// An entry with no status, no start, an unknown status or an end before its start is rejected
/// alone, with its path; the driver is created only when one of their entries is stored.
enum SamsaraHOSStatus {
    /// Samsara's `hosStatusType` values and the stored status.
    static let byName: [String: HOSLog.Status] = [
        "offDuty": .offDuty, "sleeperBed": .sleeperBerth, "driving": .driving, "onDuty": .onDuty,
        "yardMove": .yardMove, "personalConveyance": .personalConveyance,
    ]
}

extension SamsaraReader {

    func hosLogs(_ f: JSONFields, _ sink: inout S) throws {
        guard let d = try f.object("driver"), let driverID = try d.id("id") else {
            throw JSONRowError(.missingField, "the HOS log list names no driver (driver.id)", at: f.at("driver"))
        }
        let ref = DriverRef(identifiers: [.init(source: "samsara", type: "driver_id", value: driverID)], name: try d.string("name"))
        var driver: Int64? = nil
        for entry in try f.array("hosLogs") {
            do {
                let (start, end, status) = try hosInterval(entry)
                let asset = try entry.object("vehicle").map { try sink.asset(try vehicleRef($0)) }
                let id = try driver ?? sink.driver(ref)
                driver = id
                _ = try sink.load(HOSLog(driverID: id, startAt: start, endAt: end, status: status, assetID: asset, sourceFileID: sink.sourceFileID))
            } catch let e as JSONRowError {
                try sink.reject(Issue(e.reason, at: e.path, e.message, raw: entry.node.render()))
            } catch let e as RowError {
                try sink.reject(Issue(e.reason, at: entry.path, e.message, raw: entry.node.render()))
            }
        }
    }

    func hosInterval(_ f: JSONFields) throws(JSONRowError) -> (start: Int64, end: Int64?, status: HOSLog.Status) {
        guard let raw = try f.string("hosStatusType") else {
            throw JSONRowError(.missingField, "the log has no hosStatusType (its duty status)", at: f.at("hosStatusType"))
        }
        guard let status = SamsaraHOSStatus.byName[raw] else {
            throw JSONRowError(.badValue, "hosStatusType '\(raw)' is not one of \(SamsaraHOSStatus.byName.keys.sorted().joined(separator: ", "))", at: f.at("hosStatusType"))
        }
        let start = try f.requiredTime("logStartTime")
        let end = try f.time("logEndTime")
        if let end, end < start {
            throw JSONRowError(.badValue, "the log ends (\(Timestamp.iso(end))) before it starts (\(Timestamp.iso(start)))", at: f.at("logEndTime"))
        }
        return (start, end, status)
    }
}
