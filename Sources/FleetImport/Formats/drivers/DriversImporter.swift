import Foundation
import FleetCore
import FleetWarehouse

/// Master data: the fleet's drivers and operators (`drivers.csv`), from HR or a spreadsheet.
///
/// The employee id is the driver's key: it is what assignment files and the payroll name a
/// driver by, and unlike a name it is unique. A `samsara_id` column links the driver to the id
/// Samsara uses in its exports, so telematics rows find the same person. Importing a driver that
/// an assignment already auto-created fills in that driver instead of adding a second one.
public struct DriversImporter: Importer {
    public static let format = "drivers"
    public static let summary = "Master data: drivers and operators with employee id, licence class and expiry, medical card expiry, status and Samsara driver id (CSV)"
    public static let example = "drivers.csv"

    static let columns: [String: [String]] = [
        "employee_id": ["driver_id", "employee_number", "employee_no", "employee #", "emp_id", "emp_no", "staff_id", "staff_number",
                        "payroll_id", "payroll_number", "badge_number", "driver_number", "personnel_number"],
        "name": ["driver_name", "full_name", "employee_name", "display_name"],
        "first_name": ["given_name", "forename"],
        "last_name": ["surname", "family_name"],
        "license_number": ["licence_number", "license", "licence", "license_no", "licence_no", "dl_number", "drivers_license",
                           "drivers_licence", "driver_license_number", "driver_licence_number", "cdl_number", "cdl"],
        "license_state": ["licence_state", "license_jurisdiction", "licence_jurisdiction", "issuing_state", "dl_state",
                          "license_province", "licence_region", "cdl_state"],
        "license_expiry": ["licence_expiry", "license_expiration", "license_expiration_date", "licence_expiry_date", "license_expires",
                           "dl_expiry", "dl_expiration", "cdl_expiry", "cdl_expiration"],
        "license_class": ["licence_class", "license_type", "licence_type", "dl_class", "cdl_class", "class"],
        "medical_expiry": ["medical_expiration", "medical_expiry_date", "medical_expiration_date", "medical_card_expiry", "medical_card_expiration",
                           "med_card_expiry", "med_card_expiration", "medical_certificate_expiry", "medical_certificate_expiration",
                           "dot_medical_expiry", "dot_medical_expiration", "mec_expiry", "medical_examiner_certificate_expiry"],
        "status": ["driver_status", "employment_status", "activation_status", "driver_activation_status"],
        "phone": ["phone_number", "mobile", "mobile_phone", "cell", "cell_phone", "telephone"],
        "email": ["email_address", "e_mail"],
        "samsara_id": ["samsara_driver_id"],
    ]
    static let required = ["employee_id"]

    /// Employment status, not the momentary duty status: "on trip" and "off duty" are active drivers.
    static let statuses: [String: [String]] = [
        "active": ["activated", "available", "employed", "current", "on trip", "on duty", "off duty"],
        "inactive": ["deactivated", "terminated", "former", "left", "retired", "disabled"],
        "suspended": ["blocked"],
        "on_leave": ["on leave", "leave", "loa"],
    ]

    public init() {}

    /// An employee id with a name or a licence, in a file that names no vehicle: a file that
    /// does name vehicles is an assignment list or an asset list.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let fields = CSVReader.firstRecord(head),
              CSVHeader(fields, aliases: ["unit_number": AssignmentsImporter.columns["unit_number"]!]).index("unit_number") == nil
        else { return .no }
        return [["name"], ["license_number"], ["first_name", "last_name"]]
            .map { CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required + $0) }
            .max() ?? .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        try Self.load(&rows, into: &sink)
    }

    /// The rows of `drivers.csv`, or of a file a profile put in its columns (`ProfileNativeRows`).
    static func load(_ rows: inout CSVRows, into sink: inout some RecordSink) throws {
        try rows.forEach(into: &sink) { row, sink in
            guard let employeeID = row.text("employee_id") else {
                throw RowError(.missingField, "'employee_id' is empty; every driver needs the employee id that assignments and other files name them by")
            }
            let name = row.text("name") ?? Self.fullName(row.text("first_name"), row.text("last_name"))
            let license = row.text("license_number")
            let expiry = try row.date("license_expiry")
            let medical = try row.date("medical_expiry")
            let licenceClass = row.text("license_class").map(Self.licenceClass)
            let status = try row.choice("status", Self.statuses)
            let samsara = row.text("samsara_id")
            try row.unique("employee:" + employeeID, "employee id \(employeeID)")
            // Two people with one licence or one Samsara id would be merged into one driver.
            if let license { try row.unique("license:" + license, "licence number \(license)") }
            if let samsara { try row.unique("samsara:" + samsara, "samsara_id \(samsara)") }
            let identifiers = samsara.map { [AssetRef.Identifier(source: "samsara", type: "driver_id", value: $0)] } ?? []
            let fields = Driver(employeeID: employeeID, name: name, licenseNumber: license, licenseState: row.text("license_state"),
                                licenseExpiry: expiry?.description, licenseClass: licenceClass, medicalExpiry: medical?.description, status: status, phone: row.text("phone"),
                                email: row.text("email"), autoCreated: false)
            _ = try sink.defineDriver(DriverRef(identifiers: identifiers, employeeID: employeeID, licenseNumber: license, name: name),
                                      fields: fields)
        }
    }

    /// A CDL class as `A`, `B` or `C` however it is written (`Class A`, `CDL-A`); any other
    /// class (a licence that is no CDL, such as `D`) as written: it covers no CDL vehicle.
    static func licenceClass(_ text: String) -> String {
        CDLClass(licence: text)?.rawValue ?? text
    }

    static func fullName(_ first: String?, _ last: String?) -> String? {
        let parts = [first, last].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
