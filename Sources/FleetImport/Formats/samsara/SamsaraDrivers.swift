import Foundation
import FleetCore
import FleetWarehouse

/// Drivers (`/fleet/drivers`) and HOS daily logs (`/fleet/hos/daily-logs`).
///
/// A driver is linked by (`samsara`, `driver_id`) and matched like any driver: vendor id,
/// then licence number, so the same person in drivers.csv (with `samsara_id`) is one driver.
/// HOS daily logs attribute vehicles to drivers: each vehicle in `logMetaData.vehicles` becomes
/// an `assignment` of the driver for the log's day (`startTime`…`endTime`, the driver's own
/// day, stored in UTC), which reports use to name the driver of a trip without one. Duty-status
/// durations and distances have no warehouse table and are counted in a note.
extension SamsaraReader {
    func driver(_ f: JSONFields, _ sink: inout S) throws {
        guard let id = try f.id("id") else { throw JSONRowError(.missingField, "the driver has no 'id'", at: f.at("id")) }
        let name = try f.string("name"), license = try f.string("licenseNumber")
        var status: String? = nil
        if let s = try f.string("driverActivationStatus") {
            guard let mapped = ["active": "active", "deactivated": "inactive", "inactive": "inactive"][s.lowercased()] else {
                throw JSONRowError(.badValue, "driverActivationStatus '\(s)' is not active or deactivated", at: f.at("driverActivationStatus"))
            }
            status = mapped
        }
        if try f.object("staticAssignedVehicle") != nil {
            tally.count("drivers' staticAssignedVehicle not stored as assignments (no start time; HOS daily logs and assignments.csv give dated ones)")
        }
        let ref = DriverRef(identifiers: [.init(source: "samsara", type: "driver_id", value: id)], licenseNumber: license, name: name)
        _ = try sink.defineDriver(ref, fields: Driver(name: name, licenseNumber: license, licenseState: try f.string("licenseState"),
                                                      status: status, phone: try f.string("phone"), autoCreated: false))
    }

    func hosDailyLog(_ f: JSONFields, _ sink: inout S) throws {
        guard let d = try f.object("driver"), let driverID = try d.id("id") else {
            throw JSONRowError(.missingField, "the daily log names no driver (driver.id)", at: f.at("driver"))
        }
        let start = try f.requiredTime("startTime"), end = try f.requiredTime("endTime")
        guard end > start else {
            throw JSONRowError(.badValue, "the daily log ends (\(Timestamp.iso(end))) before it starts (\(Timestamp.iso(start)))", at: f.at("endTime"))
        }
        let vehicles = try f.object("logMetaData")?.array("vehicles") ?? []
        let driver = try sink.driver(DriverRef(identifiers: [.init(source: "samsara", type: "driver_id", value: driverID)], name: try d.string("name")))
        for v in vehicles {
            let asset = try sink.asset(try vehicleRef(v))
            try sink.load(Assignment(driverID: driver, assetID: asset, startAt: start, endAt: end, status: "completed", sourceFileID: sink.sourceFileID))
        }
        if f.has("dutyStatusDurations") || f.has("distanceTraveled") {
            tally.count("HOS daily logs whose duty-status durations and distances were not stored (no warehouse table; their vehicles became assignments)")
        }
    }
}
