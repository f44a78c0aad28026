import FleetWarehouse
import FleetCore

/// Drivers whose licence or medical examiner's certificate has expired, or expires within 30,
/// 60 or 90 days, as of the report period's last day (49 CFR 391.11(b)(5), 391.41, 391.45; a
/// carrier renews them before they lapse, and keeps them in the qualification file, 391.51).
///
/// A document is valid through its date: expired when the date is before the period's last
/// day, due within 30 days when it is that day or up to 30 days later, and so on. A document
/// with no date on file is listed as "not on file", never as valid. Documents valid more than
/// 90 days past the period are counted in the table's note, not listed.
///
/// The drivers judged: those who drove one of the report's vehicles in the period
/// (`DrivingDays`) and, for a report of the whole fleet, every driver not marked inactive.
enum DocumentsDue {
    enum Due: Int, Comparable {
        case expired = 0, within30, within60, within90, notOnFile

        var text: String {
            switch self {
            case .expired: return "expired"
            case .within30: return "due within 30 days"
            case .within60: return "due within 60 days"
            case .within90: return "due within 90 days"
            case .notOnFile: return "not on file"
            }
        }

        static func < (l: Due, r: Due) -> Bool { l.rawValue < r.rawValue }

        /// The bucket of a date valid through `expiry` as of `asOf`; nil beyond 90 days.
        static func of(_ expiry: CivilDate?, asOf: CivilDate) -> Due? {
            guard let expiry else { return .notOnFile }
            let left = expiry.daysSinceEpoch - asOf.daysSinceEpoch
            switch left {
            case ..<0: return .expired
            case 0...30: return .within30
            case 31...60: return .within60
            case 61...90: return .within90
            default: return nil
            }
        }
    }

    struct Line {
        var employeeID: String?
        var driver: String?
        var document: DriverDocuments.Document
        var expiry: CivilDate?
        var daysLeft: Int?
        var due: Due
    }

    static func columns() -> [TableColumn<Line>] {
        [.text("employee_id", "Employee id") { $0.employeeID }, .text("driver", "Driver") { $0.driver },
         .text("document", "Document") { $0.document.rawValue }, .text("regulation", "Regulation") { $0.document.regulation },
         .date("valid_through", "Valid through") { $0.expiry },
         .integer("days_left", "Days left after the period") { $0.daysLeft },
         .text("due", "Due", role: .note) { $0.due.text }]
    }

    static func table(_ reader: any WarehouseReader, _ request: ReportRequest, driving: DrivingDays) throws -> ReportTable {
        var ids = Set(driving.days.keys)
        if request.assets?.isEmpty ?? true {
            ids.formUnion(try reader.column("SELECT id FROM driver WHERE status IS NULL OR status <> 'inactive'", as: Int64.self))
        }
        let asOf = request.period.to
        // Before v13-driver-medical (a warehouse read-only since an upgrade) no medical date is on file.
        let medical = try reader.columnExists("medical_expiry", in: "driver") ? "medical_expiry" : "NULL"
        var lines: [Line] = []
        var valid = 0
        for id in ids {
            guard let d = try reader.all("SELECT employee_id, name, license_expiry, \(medical) FROM driver WHERE id = ?", [.integer(id)], { $0 }).first else { continue }
            for document in DriverDocuments.Document.allCases {
                let text: String? = try document == .licence ? d[2] : d[3]
                let expiry = text.flatMap { CivilDate($0) }
                guard let due = Due.of(expiry, asOf: asOf) else { valid += 1; continue }
                lines.append(Line(employeeID: try d[0], driver: try d[1], document: document, expiry: expiry,
                                  daysLeft: expiry.map { $0.daysSinceEpoch - asOf.daysSinceEpoch }, due: due))
            }
        }
        lines.sort { ($0.due, $0.expiry?.daysSinceEpoch ?? 0, $0.employeeID ?? "", $0.driver ?? "", $0.document.rawValue)
            < ($1.due, $1.expiry?.daysSinceEpoch ?? 0, $1.employeeID ?? "", $1.driver ?? "", $1.document.rawValue) }
        var builder = TableBuilder(name: "documents_due", title: "Licences and medical cards expired or due within 90 days", columns: columns())
        for l in lines { try builder.add(l) }
        let who = request.assets?.isEmpty ?? true ? "every driver not marked inactive, and any driver who drove in the period" : "the drivers who drove these vehicles in the period"
        return builder.table(note: "As of \(asOf), for \(who): a licence (391.11(b)(5)) or medical examiner's certificate (391.41, 391.45) valid through a date before then is expired; "
                             + "one valid through \(asOf) or up to 30, 60 or 90 days later is due. \"not on file\": no date in the drivers file (not judged valid). "
                             + "\(valid) document(s) valid more than 90 days after \(asOf) are not listed.")
    }
}
