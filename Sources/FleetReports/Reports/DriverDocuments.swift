import FleetCore
import FleetWarehouse

/// Drivers who drove on a local day their licence or medical examiner's certificate had expired
/// (49 CFR 391.11(b)(5): a currently valid operator's licence; 391.41, 391.45: a current medical
/// certificate; 391.51: both kept in the driver qualification file). A document is valid
/// through the expiry date it states; the days after it are expired.
///
/// A driver drove on a day when that day has a DVIR they signed, a trip they drove, an
/// assignment to a vehicle that operated that day (the operated-day rule), or an HOS driving
/// status (`DrivingDays`). A driver who drove
/// with no expiry on file is not judged: they are named in the data-quality table, never
/// counted as valid.
enum DriverDocuments {
    enum Document: String, CaseIterable {
        case licence = "licence"
        case medical = "medical card"

        var regulation: String {
            switch self {
            case .licence: return "49 CFR 391.11(b)(5), 391.51(b)"
            case .medical: return "49 CFR 391.41, 391.45, 391.51(b)(7)"
            }
        }
    }

    /// One driver, one document, one vehicle: the days driven with it expired.
    struct Line {
        var employeeID: String?
        var driver: String?
        var document: Document
        var validThrough: CivilDate
        var unit: String
        var days: [CivilDate]
        var evidence: String
    }

    static func columns() -> [TableColumn<Line>] {
        [.text("employee_id", "Employee id") { $0.employeeID }, .text("driver", "Driver") { $0.driver },
         .text("document", "Document") { $0.document.rawValue }, .text("regulation", "Regulation") { $0.document.regulation },
         .date("valid_through", "Valid through") { $0.validThrough }, .text("unit", "Unit") { $0.unit },
         .integer("days_driven_expired", "Days driven while expired") { $0.days.count },
         .date("first_day", "First day", role: .note) { $0.days.first }, .date("last_day", "Last day", role: .note) { $0.days.last },
         .text("evidence", "Evidence", role: .note) { $0.evidence }]
    }

    /// The table, and the drivers who drove with a document's expiry not on file.
    static func table(_ reader: any WarehouseReader, _ request: ReportRequest, units: [Int64: String], driving: DrivingDays) throws -> (table: ReportTable, unjudged: [String]) {
        let drove = driving.days
        var builder = TableBuilder(name: "driver_documents", title: "Drivers who drove with an expired licence or medical card", columns: columns())
        var unjudged: [String] = []
        for driverID in drove.keys.sorted() {
            guard let d = try reader.all("SELECT employee_id, name, license_expiry, medical_expiry FROM driver WHERE id = ?", [.integer(driverID)], { $0 }).first else { continue }
            let employee: String? = try d[0], name: String? = try d[1]
            let label = [employee, name].compactMap { $0 }.joined(separator: " ")
            let byAsset = drove[driverID] ?? [:]
            for document in Document.allCases {
                let text: String? = try document == .licence ? d[2] : d[3]
                guard let text, let expiry = CivilDate(text) else {
                    unjudged.append("\(label.isEmpty ? "driver #\(driverID)" : label) (\(document.rawValue))")
                    continue
                }
                for asset in byAsset.keys.sorted(by: { units[$0, default: ""] < units[$1, default: ""] }) {
                    let days = (byAsset[asset] ?? [:]).filter { $0.key > expiry }.sorted { $0.key < $1.key }
                    guard !days.isEmpty else { continue }
                    let evidence = DrivingDays.evidence(days)
                    try builder.add(Line(employeeID: employee, driver: name, document: document, validThrough: expiry, unit: units[asset] ?? "",
                                         days: days.map(\.key), evidence: evidence))
                }
            }
        }
        let table = builder.table(note: "Each local day a driver drove (signed a DVIR, drove a trip, was assigned to a vehicle that operated, or logged HOS driving) after the last day their licence "
                                  + "(391.11(b)(5)) or medical examiner's certificate (391.41, 391.45) was valid, from the drivers master file's license_expiry and medical_expiry.")
        return (table, unjudged)
    }
}
