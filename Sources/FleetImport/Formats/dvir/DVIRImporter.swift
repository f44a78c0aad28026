import Foundation
import FleetCore
import FleetWarehouse

/// Driver vehicle inspection reports and their defects (`dvir.csv`): a generic export for
/// carriers whose DVIRs are not on Samsara (paper forms keyed in, other ELD/inspection apps).
///
/// One row per defect, or one row for a DVIR without defects; the DVIR columns repeat on each
/// of its rows and must agree (a row that contradicts an earlier row of its DVIR is rejected).
/// Each row is its own savepoint: the DVIR is loaded (or its stored id reused), then the defect.
///
/// - **Keys.** `dvir:<dvir id>`; `defect:<dvir id>:<defect id>`, or without a defect id
///   `defect:<dvir id>:<component>@<created time>`.
/// - **Later state wins** (docs/FORMATS.md, "Later state wins, not later import"). A row's state time is the latest of `updated_at`, the
///   driver's and mechanic's signatures, the next driver's review and the defect's resolution.
///   A defect's `state_at` is its row's; a DVIR's is the latest over its rows. The records'
///   precedence rules (a later `state_at` wins; `StatePrecedence`) then let a re-export with the defect resolved
///   update both in place, and keep an older export imported afterwards from undoing it.
/// - **Components** are the 11 parts 49 CFR 396.11(a)(1) lists, as codes, or `other`; free text
///   is mapped by the rules of `component(_:)`, and text mapped to `other` is kept in `comment`.
public struct DVIRImporter: Importer {
    public static let format = "dvir"
    public static let summary = "Driver vehicle inspection reports and defects with repair certification and next-driver review, one row per defect (CSV)"
    public static let example = "dvir.csv"

    static let inconsistentDVIR: Issue.Reason = "inconsistent_dvir"

    static let columns: [String: [String]] = [
        "dvir_id": ["dvir", "dvir_number", "dvir_no", "inspection_id", "inspection_number", "inspection_no", "report_id", "report_number"],
        "unit_number": ["unit", "unit_no", "unit #", "vehicle_number", "vehicle_no", "asset_number", "asset_no", "fleet_number", "truck_number"],
        "vin": ["vehicle_identification_number"],
        "driver_id": ["employee_id", "employee_number", "driver_employee_id", "driver_number", "emp_id"],
        "driver_name": ["driver", "inspector", "inspector_name", "driver_full_name", "signed_by"],
        "type": ["dvir_type", "inspection_type", "report_type"],
        "started_at": ["inspection_start", "inspection_started_at", "start_time", "started", "begin_time", "submission_begin_time"],
        "signed_at": ["signed_time", "signed", "signature_time", "driver_signed_at", "submitted_at", "submission_time", "end_time", "completed_at"],
        "safety_status": ["status", "safety", "vehicle_condition", "condition", "overall_status", "dvir_status", "vehicle_safety_status"],
        "odometer_km": ["odometer_kilometres", "odometer_kilometers", "odometer_kms"],
        "odometer_mi": ["odometer_miles", "mileage_mi"],
        "odometer": ["odometer_reading", "odo", "mileage"],
        "odometer_unit": ["odometer_uom", "distance_unit"],
        "location": ["address", "formatted_address", "inspection_location"],
        "mechanic_name": ["mechanic", "mechanic_signed_by", "certified_by"],
        "mechanic_signed_at": ["mechanic_signed", "mechanic_signed_time", "mechanic_signature_time", "certified_at"],
        "mechanic_notes": ["mechanic_comment", "mechanic_comments", "repair_notes"],
        "reviewed_at": ["reviewed", "review_time", "driver_reviewed_at", "next_driver_reviewed_at", "next_driver_review_time", "acknowledged_at"],
        "reviewed_by": ["reviewer", "reviewing_driver", "next_driver", "acknowledged_by"],
        "trailer": ["trailer_number", "trailer_unit", "trailer_name", "towed_unit", "trailer_no"],
        "updated_at": ["updated", "last_updated", "updated_time", "updated_at_time", "modified_at", "last_modified"],
        "defect_id": ["defect_number", "defect_no", "defect_uuid"],
        "component": ["item", "inspection_item", "part", "defect_category", "category", "system"],
        "defect_type": ["defect", "defect_name", "defect_description", "issue", "problem"],
        "comment": ["defect_comment", "comments", "defect_notes", "notes", "remarks", "description"],
        "safety_critical": ["critical", "is_safety_critical", "affects_safety", "safety_related"],
        "defect_created_at": ["created", "created_at", "defect_created", "reported_at", "created_at_time"],
        "resolved_at": ["resolved", "resolved_time", "resolved_at_time", "repaired_at", "fixed_at"],
        "resolved_by": ["repaired_by", "fixed_by", "resolver"],
        "certification": ["repair_certification", "resolution", "certification_status", "repair_status"],
    ]
    static let required = ["dvir_id", "type", "signed_at", "safety_status"]

    static let types: [String: [String]] = [
        "pre_trip": ["pre-trip", "pre trip", "pre", "pre-trip inspection", "pre trip inspection", "pretrip dvir"],
        "post_trip": ["post-trip", "post trip", "post", "post-trip inspection", "post trip inspection", "posttrip dvir"],
        "mechanic": ["mechanic inspection", "mechanic dvir", "mechanic review", "shop inspection"],
    ]
    static let safetyStatuses: [String: [String]] = [
        "safe": ["satisfactory", "ok", "pass", "passed", "no defects", "safe to operate", "condition satisfactory"],
        "unsafe": ["unsatisfactory", "fail", "failed", "not safe", "unsafe to operate", "defects found", "out of service"],
        "resolved": ["repaired", "corrected", "defects corrected", "certified", "defects resolved"],
    ]
    static let certifications: [String: [String]] = [
        "repaired": ["repair made", "repairs made", "fixed", "corrected", "defect corrected", "defects corrected"],
        "not_needed": ["not needed", "repair not needed", "no repair needed", "repair unnecessary", "unnecessary", "not necessary",
                       "repair not necessary", "need not be corrected", "no action needed"],
    ]

    /// The parts 49 CFR 396.11(a)(1) says a DVIR covers, with the spellings matched exactly
    /// (after normalisation) before the keyword rules of `component(_:)`.
    static let components: [String: [String]] = [
        "service_brakes": ["service brakes", "service brake", "brakes", "brake", "air brakes", "brake system", "trailer brake connections",
                           "service brakes including trailer brake connections", "brake connections"],
        "parking_brake": ["parking brake", "parking brakes", "park brake", "handbrake", "emergency brake"],
        "steering": ["steering", "steering mechanism", "steering gear"],
        "lighting": ["lighting", "lighting devices", "lighting devices and reflectors", "lights", "light", "lamps", "reflectors"],
        "tires": ["tires", "tire", "tyres", "tyre"],
        "horn": ["horn", "horns"],
        "wipers": ["wipers", "wiper", "windshield wipers", "windscreen wipers"],
        "mirrors": ["mirrors", "mirror", "rear vision mirrors", "rear-vision mirrors", "rear view mirrors"],
        "coupling": ["coupling", "coupling devices", "coupling device", "fifth wheel", "5th wheel", "hitch"],
        "wheels_rims": ["wheels and rims", "wheels", "wheel", "rims", "rim", "wheels & rims"],
        "emergency_equipment": ["emergency equipment", "safety equipment", "fire extinguisher", "warning triangles", "warning devices"],
    ]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: ["dvir_id", "signed_at", "safety_status"])
    }

    /// What is known of a DVIR from its earlier rows in this file, kept in a `KeyLedger` (so a
    /// file of any length stays in bounded memory) as its first line and a packed payload.
    struct Seen {
        var line: Int
        var fields: [String]
        var stateAt: Int64
        var id: Int64

        var entry: KeyLedger.Entry { KeyLedger.Entry(line: line, payload: KeyLedger.pack(["\(stateAt)", "\(id)"] + fields)) }

        init(line: Int, fields: [String], stateAt: Int64, id: Int64) {
            self.line = line
            self.fields = fields
            self.stateAt = stateAt
            self.id = id
        }

        init?(_ entry: KeyLedger.Entry) {
            let parts = KeyLedger.unpack(entry.payload)
            guard parts.count >= 2, let stateAt = Int64(parts[0]), let id = Int64(parts[1]) else { return nil }
            self.init(line: entry.line, fields: Array(parts.dropFirst(2)), stateAt: stateAt, id: id)
        }
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        try Self.load(&rows, into: &sink)
    }

    /// The rows of `dvir.csv`, or of a file a profile put in its columns (`ProfileNativeRows`).
    static func load(_ rows: inout CSVRows, into sink: inout some RecordSink) throws {
        let input = rows.input
        guard rows.header.index("unit_number") != nil || rows.header.index("vin") != nil else {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the dvir header names no vehicle column (unit_number or vin)",
                                        hint: "A DVIR must identify the vehicle (49 CFR 396.11); add a unit_number or vin column. A vehicle name is not an identifier.")
        }
        let seen = KeyLedger()
        try rows.forEach(into: &sink) { row, sink in
            let dvirID = try row.required("dvir_id")
            let unit = row.text("unit_number")
            let vin = try row.vin("vin")
            guard unit != nil || vin != nil else {
                throw RowError(.unknownAsset, "the row names no vehicle; fill unit_number or vin (a DVIR must identify the vehicle, 49 CFR 396.11)")
            }
            let employeeID = row.text("driver_id"), driverName = row.text("driver_name")
            guard let type = try RowHints.adding("a DVIR is a driver's pre-trip or post-trip inspection or a mechanic's", { try row.choice("type", Self.types) }) else {
                throw RowError(.missingField, "'type' is empty; give pre_trip, post_trip or mechanic")
            }
            let startedAt = try row.timestamp("started_at")
            let signedAt = try row.requiredTimestamp("signed_at")
            if let startedAt, startedAt > signedAt {
                throw RowError(.badValue, "'started_at' (\(Timestamp.iso(startedAt))) is after 'signed_at' (\(Timestamp.iso(signedAt))); an inspection is signed when it ends — check the two columns")
            }
            guard let status = try RowHints.adding("'resolved' means the defects were certified after the DVIR", { try row.choice("safety_status", Self.safetyStatuses) }) else {
                throw RowError(.missingField, "'safety_status' is empty; give safe, unsafe or resolved")
            }
            let odometer = try row.metres(km: "odometer_km", mi: "odometer_mi", value: "odometer", unit: "odometer_unit")
            let mechanicSignedAt = try row.timestamp("mechanic_signed_at")
            let reviewedAt = try row.timestamp("reviewed_at")
            let updatedAt = try row.timestamp("updated_at")
            let defect = try Self.defect(row)

            // The DVIR columns, as shown when two rows of one DVIR disagree.
            let fields: [String] = [unit?.uppercased(), vin, employeeID, driverName, type, startedAt.map(Timestamp.iso), Timestamp.iso(signedAt), status,
                                    odometer.map { "\($0) m" }, row.text("location"), row.text("mechanic_name"), mechanicSignedAt.map(Timestamp.iso),
                                    row.text("mechanic_notes"), reviewedAt.map(Timestamp.iso), row.text("reviewed_by"), row.text("trailer")].map { $0 ?? "" }
            let rowState = [updatedAt, signedAt, mechanicSignedAt, reviewedAt, defect?.resolvedAt].compactMap { $0 }.max()!
            var stateAt = rowState
            let prior = try seen.entry(dvirID).flatMap(Seen.init)
            if let prior {
                if let i = fields.indices.first(where: { fields[$0] != prior.fields[$0] }) {
                    let name = Self.fieldNames[i]
                    func shown(_ v: String) -> String { v.isEmpty ? "empty" : "'\(v)'" }
                    throw RowError(Self.inconsistentDVIR, "DVIR \(dvirID) has \(name) \(shown(fields[i])) here but \(shown(prior.fields[i])) on line \(prior.line); "
                                   + "every row of one DVIR must repeat the same DVIR columns — correct the export")
                }
                stateAt = max(prior.stateAt, rowState)
            }
            let defectKey = defect.map { d in
                "defect:\(dvirID):" + (d.id ?? "\(d.component)@\(d.createdAt.map(Timestamp.iso) ?? "-")")
            }
            if let defectKey, let defect {
                try RowHints.adding(defect.id == nil ? "give each defect a defect_id so that two defects of one component can be told apart" : "", {
                    try row.unique(defectKey, defect.id.map { "defect \($0) of DVIR \(dvirID)" } ?? "a \(defect.component) defect of DVIR \(dvirID) created at the same time")
                })
            } else {
                try row.unique("dvir:" + dvirID, "DVIR \(dvirID) without a defect")
            }

            let storedID: Int64
            if let prior, stateAt == prior.stateAt {
                storedID = prior.id
            } else {
                let assetID = try sink.asset(AssetRef(vin: vin, unitNumber: unit))
                let driver = try employeeID.map { try sink.driver(DriverRef(employeeID: $0, name: driverName)) }
                let dvir = DVIR(sourceKey: "dvir:" + dvirID, assetID: assetID, driverID: driver, type: type, startedAt: startedAt, signedAt: signedAt,
                                safetyStatus: status, odometerM: odometer, location: row.text("location"), inspectorName: driverName,
                                mechanicName: row.text("mechanic_name"), mechanicSignedAt: mechanicSignedAt, mechanicNotes: row.text("mechanic_notes"),
                                reviewedAt: reviewedAt, reviewedBy: row.text("reviewed_by"), trailer: row.text("trailer"), stateAt: stateAt, sourceFileID: sink.sourceFileID)
                try sink.load(dvir)
                guard let id = try sink.id(of: dvir) else {
                    throw RowError(.badValue, "DVIR \(dvirID) could not be stored")
                }
                storedID = id
            }
            if let defect, let defectKey {
                try sink.load(DVIRDefect(dvirID: storedID, sourceKey: defectKey, component: defect.component, defectType: defect.defectType,
                                         comment: defect.comment, safetyCritical: defect.safetyCritical, createdAt: defect.createdAt,
                                         resolvedAt: defect.resolvedAt, resolvedBy: defect.resolvedBy, certification: defect.certification,
                                         stateAt: rowState, sourceFileID: sink.sourceFileID))
            }
            try seen.set(dvirID, Seen(line: prior?.line ?? row.line, fields: fields, stateAt: stateAt, id: storedID).entry)
        }
    }

    static let fieldNames = ["unit_number", "vin", "driver_id", "driver_name", "type", "started_at", "signed_at", "safety_status", "odometer",
                             "location", "mechanic_name", "mechanic_signed_at", "mechanic_notes", "reviewed_at", "reviewed_by", "trailer"]

    struct Defect {
        var id: String?
        var component: String
        var defectType: String?
        var comment: String?
        var safetyCritical: Bool
        var createdAt: Int64?
        var resolvedAt: Int64?
        var resolvedBy: String?
        var certification: String?
    }

    /// The row's defect, or nil for a DVIR without defects (no defect id, component, defect type
    /// or comment). Safety-critical defaults to yes for the 11 listed parts and no for `other`.
    static func defect(_ row: Row) throws -> Defect? {
        let id = row.text("defect_id"), componentText = row.text("component"), defectType = row.text("defect_type"), comment = row.text("comment")
        let createdAt = try row.timestamp("defect_created_at"), resolvedAt = try row.timestamp("resolved_at")
        let certification = try RowHints.adding("'repaired' or 'not_needed' certifies the defect (49 CFR 396.11(a)(3))", { try row.choice("certification", Self.certifications) })
        let critical = try row.bool("safety_critical")
        guard id != nil || componentText != nil || defectType != nil || comment != nil else {
            if let filled = ["defect_created_at", "resolved_at", "resolved_by", "certification"].first(where: { row.text($0) != nil }) {
                throw RowError(.missingField, "'\(filled)' is filled but the row names no defect; fill defect_id, component, defect_type or comment, or clear the defect columns of a DVIR without defects")
            }
            return nil
        }
        if let createdAt, let resolvedAt, resolvedAt < createdAt {
            throw RowError(.badValue, "'resolved_at' (\(Timestamp.iso(resolvedAt))) is before 'defect_created_at' (\(Timestamp.iso(createdAt))); a defect is resolved after it is found — check the two columns")
        }
        var component = "other"
        var keptComment = comment
        if let componentText {
            component = Self.component(componentText)
            if component == "other", CSVHeader.normalise(componentText) != "other" {
                keptComment = comment.map { "\(componentText): \($0)" } ?? componentText
            }
        } else if let defectType {
            component = Self.component(defectType)
        }
        return Defect(id: id, component: component, defectType: defectType, comment: keptComment, safetyCritical: critical ?? (component != "other"),
                      createdAt: createdAt, resolvedAt: resolvedAt, resolvedBy: row.text("resolved_by"), certification: certification)
    }

    /// Maps a component as people write it to one of the 11 codes, or `other`. Exact spellings
    /// first (`components`); then keyword rules, in an order that settles the overlaps: parking
    /// brake, coupling (fifth wheel), warning devices, lighting (brake lights), tires (steer
    /// tire), steering (steering wheel), service brakes (glad hands, air lines), wheels and rims,
    /// horn, wipers, mirrors, other emergency equipment.
    public static func component(_ text: String) -> String {
        let n = CSVHeader.normalise(text)
        for code in components.keys.sorted() where ([code] + components[code]!).contains(where: { CSVHeader.normalise($0) == n }) {
            return code
        }
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let joined = words.joined(separator: " ")
        func prefix(_ p: String...) -> Bool { words.contains { w in p.contains { w.hasPrefix($0) } } }
        func word(_ p: String...) -> Bool { words.contains { w in p.contains { w == $0 || w == $0 + "s" } } }
        func phrase(_ p: String...) -> Bool { p.contains { joined.contains($0) } }
        if (prefix("park") && prefix("brake")) || prefix("handbrake") || phrase("hand brake", "emergency brake") { return "parking_brake" }
        if phrase("fifth wheel", "5th wheel", "king pin", "safety chain", "tow bar") || prefix("coupl", "hitch", "kingpin", "pintle", "drawbar", "towbar") { return "coupling" }
        if prefix("extinguisher", "triangle", "flare") || phrase("warning device") { return "emergency_equipment" }
        if words.contains(where: { $0.contains("light") || $0.contains("lamp") }) || prefix("reflector", "signal", "beam", "marker", "blinker") { return "lighting" }
        if prefix("tire", "tyre") { return "tires" }
        if prefix("steer") { return "steering" }
        if prefix("brake", "glad") || phrase("air line", "air hose") { return "service_brakes" }
        if prefix("wheel") || word("rim", "lug", "lugnut", "hub") { return "wheels_rims" }
        if word("horn") { return "horn" }
        if prefix("wiper") { return "wipers" }
        if prefix("mirror") { return "mirrors" }
        if prefix("emergency", "fuse") { return "emergency_equipment" }
        return "other"
    }

}
