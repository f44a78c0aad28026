import Foundation
import FleetCore
import FleetWarehouse

/// DVIRs in the legacy `/fleet/dvirs/history` shape and the `/dvirs/stream` shape, and
/// defects from `/fleet/defects/history` and `/defects/stream`.
///
/// - **Keys.** `samsara-dvir:<id>`, `samsara-defect:<id>`: a re-export of the same DVIR
///   updates the same rows.
/// - **Later state wins** (docs/FORMATS.md, "Later state wins, not later import"). A DVIR's `state_at` is its `updatedAtTime`, else the
///   latest of its signing time, its signatures and its defects' creation, resolution and
///   mechanic-note times. A defect's is the latest of its own times and its DVIR's
///   `updatedAtTime`. The records' precedence rules let a later export (defects resolved)
///   update the rows whatever the import order, and keep an older one from undoing it.
/// - **Signatures.** The author is the inspector (`driver_id` when they sign as a driver);
///   the first mechanic signature certifies (`mechanic_name`, `mechanic_signed_at`); a driver
///   signature after it is the next driver's review (49 CFR 396.13).
/// - **Components** come from `defectType` through `DVIRImporter.component(_:)`, as for the
///   generic DVIR CSV; the text itself stays in `defect_type`.
extension SamsaraReader {
    struct Signature {
        var id: String?, name: String?, type: String?, at: Int64?
    }

    func dvir(_ f: JSONFields, _ sink: inout S) throws {
        guard let id = try f.id("id") else { throw JSONRowError(.missingField, "the DVIR has no 'id'", at: f.at("id")) }
        let rawType = try f.requiredString("type")
        guard let type = ["pretrip": "pre_trip", "posttrip": "post_trip", "mechanic": "mechanic"][rawType.lowercased()] else {
            throw JSONRowError(.badValue, "DVIR type '\(rawType)' is not preTrip, postTrip or mechanic; the warehouse keeps only those (49 CFR 396.11)", at: f.at("type"))
        }
        let signatures = try ["authorSignature", "secondSignature", "thirdSignature"].map { try signature(f, $0) }
        let author = signatures[0]
        let startedAt = try f.time("startTime") ?? f.time("dvirSubmissionBeginTime")
        guard let signedAt = try f.time("endTime") ?? f.time("dvirSubmissionTime") ?? author?.at else {
            throw JSONRowError(.missingField, "the DVIR has no signing time (endTime, dvirSubmissionTime or authorSignature.signedAtTime)", at: f.at("endTime"))
        }
        if let startedAt, startedAt > signedAt {
            throw JSONRowError(.badValue, "the DVIR starts (\(Timestamp.iso(startedAt))) after it is signed (\(Timestamp.iso(signedAt)))", at: f.path)
        }
        let updatedAt = try f.time("updatedAtTime")
        let trailerLabel = try f.string("trailerName") ?? f.object("trailer")?.string("name")
        var defects: [Defect] = []
        let lists: [(String, String?)] = [("vehicleDefects", nil), ("trailerDefects", trailerLabel ?? "trailer")]
        for (key, label) in lists {
            for d in try f.array(key) {
                do { defects.append(try defect(d, trailer: label, trailerKey: key == "trailerDefects", dvirUpdatedAt: updatedAt)) } catch let e as JSONRowError {
                    try sink.reject(Issue(e.reason, at: e.path, e.message, raw: d.node.render()))
                }
            }
        }
        guard let asset = try assetOf(f, &sink) else {
            throw JSONRowError(.unknownAsset, "the DVIR names no vehicle or trailer (vehicle.id, trailer.id)", at: f.at("vehicle"))
        }
        var mechanic = signatures.dropFirst().compactMap { $0 }.first { $0.type == "mechanic" }
        if mechanic == nil, type == "mechanic" || author?.type == "mechanic" { mechanic = author }
        let review = signatures.dropFirst().compactMap { $0 }.filter { $0.type != "mechanic" && ($0.at ?? 0) >= (mechanic?.at ?? 0) }.last
        var driverID: Int64? = nil
        if let author, author.type != "mechanic", let aid = author.id {
            driverID = try sink.driver(DriverRef(identifiers: [.init(source: "samsara", type: "driver_id", value: aid)], name: author.name))
        }
        var status = try f.string("safetyStatus")?.lowercased()
        if status == nil || status == "unknown" {
            let listed = try f.array("defectIds").count
            status = defects.isEmpty ? (listed > 0 ? "unsafe" : "safe") : defects.allSatisfy { $0.resolvedAt != nil } ? "resolved" : "unsafe"
            tally.count("DVIRs without a safety status (or 'unknown'), derived from their defects")
        }
        guard let status, ["safe", "unsafe", "resolved"].contains(status) else {
            throw JSONRowError(.badValue, "safetyStatus '\(try f.string("safetyStatus") ?? "")' is not safe, unsafe or resolved", at: f.at("safetyStatus"))
        }
        let odometer = try f.number("odometerMeters", in: 0...2e10, unit: "m").flatMap { $0.value > 0 ? $0.value : nil }
        // `location` is a plain address in older saves and an object in newer ones. It is
        // descriptive only: a value of another type is not worth rejecting the inspection for,
        // so it is read by its type instead of by trying each reading.
        let location: String?
        switch f.node["location"] {
        case .object?:
            let l = try f.object("location")
            location = try l?.string("formattedAddress") ?? l?.string("address") ?? l?.string("name")
        case .string?:
            location = try f.string("location")
        default:
            location = try f.string("formattedAddress")
        }
        let times = [updatedAt, signedAt] + signatures.map { $0?.at } + defects.map(\.stateAt)
        let stateAt = updatedAt ?? times.compactMap { $0 }.max()!
        let record = DVIR(sourceKey: "samsara-dvir:\(id)", assetID: asset, driverID: driverID, type: type, startedAt: startedAt, signedAt: signedAt,
                          safetyStatus: status, odometerM: odometer, location: location, inspectorName: author?.name,
                          mechanicName: mechanic?.name, mechanicSignedAt: mechanic?.at, mechanicNotes: try f.string("mechanicNotes"),
                          reviewedAt: review?.at, reviewedBy: review?.name, trailer: trailerLabel, stateAt: stateAt, sourceFileID: sink.sourceFileID)
        try sink.load(record)
        guard let dvirID = try sink.id(of: record) else { throw RowError(.badValue, "DVIR \(id) could not be stored") }
        for d in defects { try sink.load(d.record(dvir: dvirID, file: sink.sourceFileID)) }
        // Defects of this DVIR read from an earlier defects export join it now, after its own
        // list, as if that export came second (a later state wins either way).
        try sink.attachPendingDefects(dvirKey: record.sourceKey, dvirID: dvirID)
    }

    /// A defect from the defects endpoints (one naming a `trailer` is a trailer defect, as in
    /// the DVIR's `trailerDefects`): attached to its `dvirId` when that DVIR is known,
    /// else to the DVIR its earlier import attached it to. A defect whose DVIR is not in the
    /// warehouse yet waits in `dvir_defect_pending` (`PendingDVIRDefect`) and joins its DVIR
    /// when a later file loads it, so that the order of the two exports does not matter; a
    /// defect naming no DVIR at all (`dvirId` absent or empty) and stored under no DVIR waits
    /// for a DVIR listing a defect with its key.
    func defect(_ f: JSONFields, _ sink: inout S) throws {
        var trailer: String? = nil
        if let t = try f.object("trailer") { trailer = try t.string("name") ?? "trailer" }
        // A legacy defects export (no dvirId) naming a trailer lists a DVIR's trailer defect:
        // it takes the trailer key, as `trailerDefects` does. The stream shape names the DVIR's
        // vehicle and trailer on every defect, and its ids are unique: its key stays plain.
        var d = try defect(f, trailer: trailer, trailerKey: trailer != nil && !f.has("dvirId"), dvirUpdatedAt: nil)
        var dvirID: Int64? = nil
        if let dvir = try f.id("dvirId") {
            dvirID = try sink.id(of: DVIR(sourceKey: "samsara-dvir:\(dvir)", assetID: 0, type: "pre_trip", signedAt: 0, safetyStatus: "safe", stateAt: 0, sourceFileID: 0))
            // A stream defect naming a trailer keeps the plain key, unless the same defect of the
            // same DVIR is stored under the trailer key (a DVIR's trailerDefects, or a row the
            // v7 migration re-keyed): it then updates that row instead of adding a second one.
            if trailer != nil, let dvirID, try sink.id(of: StoredDefectDVIR(sourceKey: d.key)) == nil,
               let id = d.key.split(separator: ":").last, try sink.id(of: StoredDefectDVIR(sourceKey: "samsara-defect:trailer:\(id)")) == dvirID {
                d.key = "samsara-defect:trailer:\(id)"
            }
        }
        if dvirID == nil { dvirID = try sink.id(of: StoredDefectDVIR(sourceKey: d.key)) }
        guard let dvirID else {
            let dvir = try f.id("dvirId")
            let trailerKey = trailer != nil && dvir != nil ? d.key.split(separator: ":").last.map { "samsara-defect:trailer:\($0)" } : nil
            try sink.load(PendingDVIRDefect(d.record(dvir: 0, file: sink.sourceFileID), dvirKey: dvir.map { "samsara-dvir:\($0)" },
                                            trailerKey: trailerKey, location: f.path))
            sink.note("defects whose DVIR is not in the warehouse yet, kept pending until a DVIR export brings it (fleetkit status: dvir_defect_pending)",
                      example: dvir.map { "dvirId \($0)" } ?? d.key)
            return
        }
        try sink.load(d.record(dvir: dvirID, file: sink.sourceFileID))
        // A pending copy of this defect (read earlier from an export naming no DVIR) joins it too.
        try sink.attachPendingDefects(dvirKey: nil, dvirID: dvirID)
    }

    struct Defect {
        var key: String, component: String, defectType: String?, comment: String?, critical: Bool
        var createdAt: Int64?, resolvedAt: Int64?, resolvedBy: String?, stateAt: Int64

        func record(dvir: Int64, file: Int64) -> DVIRDefect {
            DVIRDefect(dvirID: dvir, sourceKey: key, component: component, defectType: defectType, comment: comment, safetyCritical: critical,
                       createdAt: createdAt, resolvedAt: resolvedAt, resolvedBy: resolvedBy, certification: resolvedAt == nil ? nil : "repaired",
                       stateAt: stateAt, sourceFileID: file)
        }
    }

    /// Samsara marks a defect resolved without saying whether it was repaired or found not to
    /// need repair; a resolution is stored as `repaired`.
    ///
    /// Keys: a vehicle defect is `samsara-defect:<id>`, a trailer defect
    /// `samsara-defect:trailer:<id>`. Samsara's own DVIR example lists a vehicle defect and a
    /// trailer defect with the same id "18": one key would make the second silently overwrite
    /// the first.
    func defect(_ d: JSONFields, trailer: String?, trailerKey: Bool, dvirUpdatedAt: Int64?) throws -> Defect {
        guard let id = try d.id("id") else { throw JSONRowError(.missingField, "the defect has no 'id'", at: d.at("id")) }
        tally.unknown("defect", d.unknownKeys(SamsaraShape.defectKeys))
        let type = try d.string("defectType")
        let component = type.map(DVIRImporter.component) ?? "other"
        var comment = try d.string("comment")
        if let trailer {
            let label = trailer.lowercased().hasPrefix("trailer") ? trailer : "Trailer \(trailer)"
            comment = label + (comment.map { ": \($0)" } ?? "")
        }
        if let notes = try d.string("mechanicNotes") { comment = (comment.map { $0 + "; " } ?? "") + "mechanic notes: \(notes)" }
        let created = try d.time("createdAtTime")
        let resolved = try d.bool("isResolved") ?? false
        var resolvedAt = try d.time("resolvedAtTime")
        let updated = try d.time("updatedAtTime"), notesAt = try d.time("mechanicNotesUpdatedAtTime")
        if !resolved { resolvedAt = nil } else if resolvedAt == nil {
            resolvedAt = updated ?? notesAt
            tally.count("resolved defects without resolvedAtTime, resolved at their update time")
        }
        if let c = created, let r = resolvedAt, r < c {
            throw JSONRowError(.badValue, "the defect is resolved (\(Timestamp.iso(r))) before it was created (\(Timestamp.iso(c)))", at: d.at("resolvedAtTime"))
        }
        let by = try d.object("resolvedBy")
        var resolver: String? = nil
        if resolved, let by { resolver = try by.string("name") ?? by.id("id") }
        var critical = component != "other"
        if let s = try d.string("defectSafetyStatus")?.lowercased() { critical = s == "unsafe" || (s != "safe" && critical) }
        guard let stateAt = [created, resolvedAt, updated, notesAt, dvirUpdatedAt].compactMap({ $0 }).max() else {
            throw JSONRowError(.missingField, "the defect has no time (createdAtTime, resolvedAtTime or updatedAtTime)", at: d.at("createdAtTime"))
        }
        return Defect(key: trailerKey ? "samsara-defect:trailer:\(id)" : "samsara-defect:\(id)", component: component, defectType: type, comment: comment, critical: critical, createdAt: created,
                      resolvedAt: resolvedAt, resolvedBy: resolver, stateAt: stateAt)
    }

    private func signature(_ f: JSONFields, _ key: String) throws -> Signature? {
        guard let s = try f.object(key) else { return nil }
        let user = try s.object("signatoryUser")
        return Signature(id: try user?.id("id"), name: try user?.string("name") ?? s.string("name"),
                         type: try s.string("type")?.lowercased(), at: try s.time("signedAtTime"))
    }
}

/// The DVIR row id of a stored defect, read through `RecordSink.id(of:)`: that query selects
/// `id` from `table` by the key columns, and this table is a view of `dvir_defect` that names
/// `dvir_id` `id`. A legacy defects export names no DVIR, so this is how its resolution finds
/// the DVIR that the defect was first imported with. (A RecordSink lookup method would be
/// clearer; this keeps the sink protocol unchanged.)
struct StoredDefectDVIR: LoadableRecord {
    static let table = "(SELECT dvir_id AS id, source_key FROM dvir_defect)"
    static let keyColumns = ["source_key"]
    static let valueColumns: [String] = []
    var sourceKey: String

    func bind(into b: inout Binder) { b.bind(sourceKey) }
}
