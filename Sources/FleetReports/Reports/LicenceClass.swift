import FleetCore
import FleetWarehouse

/// Drivers who drove a vehicle their licence class does not cover (49 CFR 383.91: the vehicle
/// groups and which licence covers which; 383.37(a): a carrier may not let a driver operate a
/// vehicle without a CDL of the proper class). The vehicle's needed class is the assets file's
/// `cdl_class`; the driver's is the drivers file's `license_class` (`CDLClass`: A covers B and
/// C, B covers C; any other licence class covers none of them).
///
/// A vehicle with no class on file, or a driver with none, is not judged: both are named in
/// the data-quality table, never counted as covered. A vehicle whose class is `none` needs no
/// CDL and is never a finding.
enum LicenceClass {
    struct Line {
        var employeeID: String?
        var driver: String?
        var licenceClass: String
        var unit: String
        var needed: CDLClass
        var days: [CivilDate]
        var evidence: String
    }

    static let regulation = "49 CFR 383.37(a), 383.91"

    static func columns() -> [TableColumn<Line>] {
        [.text("employee_id", "Employee id") { $0.employeeID }, .text("driver", "Driver") { $0.driver },
         .text("license_class", "Licence class") { $0.licenceClass }, .text("unit", "Unit") { $0.unit },
         .text("vehicle_class", "Class the vehicle needs") { $0.needed.rawValue }, .text("regulation", "Regulation") { _ in regulation },
         .integer("days_driven", "Days driven") { $0.days.count },
         .date("first_day", "First day", role: .note) { $0.days.first }, .date("last_day", "Last day", role: .note) { $0.days.last },
         .text("evidence", "Evidence", role: .note) { $0.evidence }]
    }

    /// What the rule could not judge: drivers with no licence class who drove a CDL vehicle,
    /// and vehicles driven with no class on file.
    struct Unjudged {
        var drivers: [String] = []
        var vehicles: [String] = []
    }

    static func table(_ reader: any WarehouseReader, _ request: ReportRequest, units: [Int64: String], driving: DrivingDays) throws -> (table: ReportTable, unjudged: Unjudged) {
        // A warehouse read before v14-driver-licence (read-only since an upgrade) has neither
        // column: every class is then not on file.
        let vehicleClass = try reader.columnExists("cdl_class", in: "asset") ? "cdl_class" : "NULL"
        let licenceClass = try reader.columnExists("license_class", in: "driver") ? "license_class" : "NULL"
        var needed: [Int64: String?] = [:]
        try reader.forEach("SELECT id, \(vehicleClass) FROM asset", []) { r in
            let id: Int64 = try r[0]
            if units[id] != nil { needed[id] = .some(try r[1] as String?) }
        }
        var builder = TableBuilder(name: "licence_class", title: "Drivers who drove a vehicle their licence class does not cover", columns: columns())
        var unjudged = Unjudged()
        var unclassed = Set<Int64>()
        for driverID in driving.days.keys.sorted() {
            guard let d = try reader.all("SELECT employee_id, name, \(licenceClass) FROM driver WHERE id = ?", [.integer(driverID)], { $0 }).first else { continue }
            let employee: String? = try d[0], name: String? = try d[1], held: String? = try d[2]
            let label = [employee, name].compactMap { $0 }.joined(separator: " ")
            let byAsset = driving.days[driverID] ?? [:]
            var namedUnjudged = false
            for asset in byAsset.keys.sorted(by: { units[$0, default: ""] < units[$1, default: ""] }) {
                guard let text = needed[asset] ?? nil else { unclassed.insert(asset); continue }
                guard let vehicle = CDLClass(rawValue: text) else { continue }  // `none`: no CDL needed
                guard let held else {
                    if !namedUnjudged { unjudged.drivers.append(label.isEmpty ? "driver #\(driverID)" : label) }
                    namedUnjudged = true
                    continue
                }
                if let licence = CDLClass(licence: held), licence.covers(vehicle) { continue }
                let days = (byAsset[asset] ?? [:]).sorted { $0.key < $1.key }
                try builder.add(Line(employeeID: employee, driver: name, licenceClass: held, unit: units[asset] ?? "", needed: vehicle,
                                     days: days.map(\.key), evidence: DrivingDays.evidence(days)))
            }
        }
        unjudged.vehicles = unclassed.compactMap { units[$0] }.sorted()
        let table = builder.table(note: "Each vehicle whose cdl_class (assets file) a driver's license_class (drivers file) does not cover, with the local days the driver drove it "
                                  + "(signed a DVIR, drove a trip, was assigned to it on a day it operated, or logged HOS driving on it). A class A licence covers B and C, B covers C (383.91(c)); "
                                  + "any other licence class covers none. Endorsements (383.93) are not judged.")
        return (table, unjudged)
    }
}
