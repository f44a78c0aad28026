import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// For compliance officers and auditors (49 CFR 396.11/396.13): per vehicle, the days it
/// operated, the end-of-day reports (396.11) and pre-trip inspections (396.13) filed, judged
/// apart, the days missing an end-of-day report under the warehouse's DVIR policy, the defects
/// and whether each safety defect was certified repaired before the vehicle was driven again;
/// the signature chain of every defect; drivers who drove with an expired licence or medical
/// card, or a vehicle their licence class does not cover; the DVIR register for the auditor's window; retention.
///
/// The policy and the carrier are in the title, so every page, sheet footer and file of the
/// report names them; a report limited to some units (`--assets`) names them in its title and
/// file names. Portable: it runs on SQLite and PostgreSQL alike.
public struct DVIRComplianceReport: PortableReport {
    public static let name = "dvir-compliance"
    public static let title = "DVIR compliance"
    public static let summary = "Per vehicle: days operated, end-of-day reports and pre-trip inspections, days missing an end-of-day report under the DVIR policy, defects, certification before the next trip, violations; signature-chain findings; drivers who drove with an expired licence or medical card or a licence class that does not cover the vehicle; the DVIR register; retention"
    public static let needs = [ReportDataNeed(.dvir)]
    public init() {}

    /// Movement above this in a window counts as operating (matches the operated-day rule).
    static let operatingMetres = 500.0

    /// One vehicle's inspections and defects in the period.
    struct VehicleLine {
        var unit: String
        var vin: String?
        /// Nil: unknown (no telematics, or a single reading).
        var operated: Int?
        var endOfDay: Int
        var preTrip: Int
        /// Days an end-of-day report was owed under the policy; nil when that depends on days
        /// operated that are unknown.
        var required: Int?
        var missing: Int?
        var found: Int
        var certifiable: Int
        var certified: Int
        var violationDays: Int
        var findings: Int
        var open: Int
        var accepted: Int
        var disputed: Int
    }

    /// One defect open in the period, as the violation and certification rules read it.
    struct Defect {
        var id: Int64
        var component: String
        var safetyCritical: Bool
        /// The defect's own report time, else its DVIR's signature.
        var created: Int64
        var resolved: Int64?
        var certification: String?
        var signedAt: Int64
    }

    /// One local day a vehicle moved with an uncertified safety defect.
    struct Violation {
        var unit: String
        var day: CivilDate
        var component: String
        var created: Int64
        var resolved: Int64?
        var movedM: Double
    }

    /// The title every page carries: the report, its units when limited, the policy's name and
    /// the carrier.
    static func title(_ request: ReportRequest) -> String {
        var t = Self.title
        if let assets = request.assets, !assets.isEmpty { t += " · " + assets.joined(separator: ", ") }
        t += " · policy \(request.dvirPolicy.rawValue)"
        if let name = request.carrier.name { t += " · " + name }
        if let dot = request.carrier.usdotNumber { t += " · USDOT \(dot)" }
        return t
    }

    static func vehicleColumns(_ request: ReportRequest) -> [TableColumn<VehicleLine>] {
        [.text("unit", "Unit", total: .label("Fleet")) { $0.unit }, .text("vin", "VIN") { $0.vin },
         .integer("days_operated", "Days operated", total: .sum) { $0.operated },
         .integer("end_of_day_reports", "End-of-day reports (396.11)", total: .sum) { $0.endOfDay },
         .integer("pre_trip_inspections", "Pre-trip inspections (396.13)", total: .sum) { $0.preTrip },
         .integer("days_requiring_report", "Days an end-of-day report is required", total: .sumOfKnown) { $0.required },
         .integer("days_missing_report", "Days missing an end-of-day report", total: .sumOfKnown) { $0.missing },
         .integer("defects", "Defects found", total: .sum) { $0.found },
         .integer("safety_defects", "Safety defects open in period") { $0.certifiable },
         .integer("certified_before_use", "Certified before next use", total: .sum) { $0.certified },
         .integer("violation_days", "Days driven with an uncertified safety defect", total: .sum) { $0.violationDays },
         .integer("chain_findings", "Signature-chain findings", total: .sum) { $0.findings },
         .integer("chain_findings_open", "Findings open", total: .sum) { $0.open },
         .integer("chain_findings_accepted", "Findings accepted", total: .sum) { $0.accepted },
         .integer("chain_findings_disputed", "Findings disputed", total: .sum) { $0.disputed }]
    }

    static func violationColumns(_ request: ReportRequest) -> [TableColumn<Violation>] {
        [.text("unit", "Unit") { $0.unit }, .date("day", "Day") { $0.day }, .text("component", "Component", role: .note) { $0.component },
         .datetime("reported", "Reported") { $0.created },
         TableColumn(ReportColumn("certified", "Certified", .text), role: .note) { $0.resolved.map { .datetime($0) } ?? .text("open") },
         // In the requested unit, to 0.1 of it: a movement, not a measured trip distance.
         TableColumn(ReportColumn("driven", "Driven while open", .distance, unit: request.distanceUnit), role: .measure) {
             .number((request.distance($0.movedM) * 10).rounded() / 10)
         }]
    }

    public func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        try Self.build(reader, request).output
    }

    /// The signature-chain findings of the report for `request`, with their decisions: what
    /// `DVIRFindingDecision.record` checks an id against, so it accepts only what the report shows.
    static func chainFindings(_ db: Database, _ request: ReportRequest) throws -> [DVIRChain.Finding] {
        try build(SQLiteReader(db), request).findings
    }

    static func build(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> (output: ReportOutput, findings: [DVIRChain.Finding]) {
        let decisions = try DVIRFindingDecision.latest(reader)
        var allFindings: [DVIRChain.Finding] = []
        let assets = try AssetInfo.fetchAll(reader, request).filter { $0.kind != "equipment" }
        // A vehicle whose rollup measured nothing (one snapshot) has unknown days operated, as
        // one without telematics does: not 0 days, and so no "missing DVIR" count either.
        let usage = try AssetUsage.fetch(reader, request)
        let days = try OperatedDays.fetch(reader, request).filter { usage[$0.key]?.measured ?? false }
        var summary = TableBuilder(name: "by_vehicle", title: "Inspections and defects by vehicle", columns: Self.vehicleColumns(request))
        var violations = TableBuilder(name: "violations", title: "Driven with an uncertified safety defect", columns: Self.violationColumns(request))
        var chain = TableBuilder(name: "findings", title: "Signature chain: findings", columns: DVIRChain.columns(request))
        var unjudged: [String] = []
        var unknownRequired: [String] = []
        var repairHours: [Double] = []
        for a in assets {
            let vin = try reader.value("SELECT vin FROM asset WHERE id = ?", [.integer(a.id)], as: String.self)
            let filed = try reader.all("SELECT type, signed_at FROM dvir WHERE asset_id = ? AND signed_at >= ? AND signed_at < ?",
                                       [.integer(a.id), .instant(request.start), .instant(request.end)]) { (type: try $0[0] as String, signed: try $0[1] as Int64) }
            let endOfDayDays = Set(filed.filter { $0.type == "post_trip" }.map { request.zone.day(of: $0.signed) })
            let endOfDay = filed.filter { $0.type == "post_trip" }.count
            let preTrip = filed.filter { $0.type == "pre_trip" }.count
            // The local days a driver reported a defect on the vehicle (on either kind of report).
            let defectDays = Set(try reader.column("""
                SELECT COALESCE(d.created_at, v.signed_at) FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id
                WHERE v.asset_id = ? AND v.type IN ('pre_trip', 'post_trip') AND COALESCE(d.created_at, v.signed_at) >= ? AND COALESCE(d.created_at, v.signed_at) < ?
                """, [.integer(a.id), .instant(request.start), .instant(request.end)], as: Int64.self).map { request.zone.day(of: $0) })
            let operated = days[a.id]
            var required: Int?, missing: Int?
            if let operated {
                let owed = operated.filter { request.dvirPolicy.requiresEndOfDayReport(defectFound: defectDays.contains($0)) }
                required = owed.count
                missing = owed.subtracting(endOfDayDays).count
            } else if request.dvirPolicy == .law {
                // Days operated unknown: a defect day already covered by an end-of-day report owes
                // nothing more; any other defect day is owed only if the vehicle worked, unknown.
                if defectDays.subtracting(endOfDayDays).isEmpty { (required, missing) = (defectDays.count, 0) } else { unknownRequired.append(a.unit) }
            } else {
                unknownRequired.append(a.unit)
            }
            // In the order of their DVIRs' signatures: the violation rows and the unjudged list follow it.
            let defects = try reader.all("""
                SELECT d.id, d.component, d.safety_critical, d.created_at, d.resolved_at, d.certification, v.signed_at
                FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id
                WHERE v.asset_id = ? AND COALESCE(d.created_at, v.signed_at) < ? AND (d.resolved_at IS NULL OR d.resolved_at >= ?)
                ORDER BY v.signed_at, v.id, d.id
                """, [.integer(a.id), .instant(request.end), .instant(request.start)]) {
                Defect(id: try $0[0], component: try $0[1], safetyCritical: try $0[2], created: try $0[3] ?? $0[6], resolved: try $0[4],
                       certification: try $0[5], signedAt: try $0[6])
            }
            var certifiedInTime = 0, foundInPeriod = 0, violationDays = Set<CivilDate>()
            var findings = try DVIRChain.findings(reader, request, asset: a.id, unit: a.unit)
            for d in defects {
                let created = d.created
                let resolved = d.resolved
                if created >= request.start { foundInPeriod += 1 }
                if let resolved, resolved >= request.start, resolved < request.end { repairHours.append(Double(resolved - created) / 3_600_000) }
                guard d.safetyCritical else { continue }
                // Each local day the defect was open: did the vehicle move while it was open?
                var day = max(request.zone.day(of: created), request.period.from)
                let lastDay = min(resolved.map { request.zone.day(of: $0) } ?? request.period.to, request.period.to)
                var drove = false, judged = true
                var driven: [String] = []
                while day <= lastDay {
                    let from = max(created, request.zone.start(of: day)), to = min(resolved ?? Int64.max, request.zone.start(of: day.adding(days: 1)))
                    if let moved = try Movement.metres(reader, asset: a.id, from: from, to: to) {
                        if moved > Self.operatingMetres {
                            drove = true
                            try violations.add(Violation(unit: a.unit, day: day, component: d.component, created: created, resolved: resolved, movedM: moved))
                            violationDays.insert(day)
                            driven.append("\(day) \(DVIRChain.distanceText(moved, request))")
                        }
                    } else {
                        judged = false
                    }
                    day = day.adding(days: 1)
                }
                if !judged { unjudged.append("\(a.unit) \(d.component) (\(Timestamp.iso(created)))") }
                if resolved != nil, !drove, judged { certifiedInTime += 1 }
                if drove {
                    let dvir = try reader.all("SELECT v.id, v.source_key FROM dvir v JOIN dvir_defect d ON d.dvir_id = v.id WHERE d.id = ?", [.integer(d.id)]) {
                        (id: try $0[0] as Int64, key: try $0[1] as String) }.first
                    // The review is not this rule's: its columns stay empty, as the rule reads only the certification.
                    let link = DVIRChain.Link(dvirID: dvir?.id ?? 0, dvirKey: dvir?.key ?? "", signedAt: d.signedAt, component: d.component, created: created, resolved: resolved,
                                              resolvedBy: nil, certification: d.certification, mechanicName: nil, reviewedAt: nil, reviewedBy: nil)
                    findings.append(DVIRChain.Finding(unit: a.unit, rule: .drivenBeforeCertification, finding: "driven with a safety defect before its repair was certified",
                                                      link: link, evidence: "driven: " + driven.joined(separator: "; ")))
                }
            }
            for i in findings.indices { findings[i].decision = decisions[findings[i].id] }
            for f in findings { try chain.add(f) }
            allFindings += findings
            let certifiable = defects.filter(\.safetyCritical).count
            try summary.add(VehicleLine(unit: a.unit, vin: vin, operated: operated?.count, endOfDay: endOfDay, preTrip: preTrip, required: required, missing: missing,
                                    found: foundInPeriod, certifiable: certifiable, certified: certifiedInTime, violationDays: violationDays.count,
                                    findings: findings.count, open: findings.filter { $0.decision == nil }.count,
                                    accepted: findings.filter { $0.decision?.state == .accepted }.count,
                                    disputed: findings.filter { $0.decision?.state == .disputed }.count))
        }
        func count(_ column: String) -> Double { summary.total(column).number ?? 0 }
        let summaryTable = summary.table(note: "Policy \(request.dvirPolicy.statement). Only end-of-day (post-trip) reports satisfy 396.11; a pre-trip inspection is the 396.13 review and is counted apart."
                                         + (unknownRequired.isEmpty ? "" : " Days operated unknown, so the days owing a report are unknown, for: \(unknownRequired.joined(separator: ", ")).")
                                         + " Carrier: \(request.carrier.line)" + (request.carrier.address.map { ", \($0)" } ?? "") + ".")
        let violationTable = violations.table(note: "Each local day the vehicle moved more than 0.5 km between the defect's report and its repair certification.")
        let chainTable = chain.table(note: "Each defect's chain: reported → certified (repaired or not needed, 396.11(a)(3)) → reviewed by the next driver (396.13(b), (c)). Evidence lists the rows each finding rests on. "
                                     + "A finding stays listed once a compliance officer accepts or disputes it (`fleetkit review finding accept|dispute FINDING-ID --reason TEXT`), with the latest decision, its reason, who and when.")
        let units = Dictionary(assets.map { ($0.id, $0.unit) }, uniquingKeysWith: { a, _ in a })
        let driving = try DrivingDays.fetch(reader, request, units: units, operated: days)
        let (driverTable, unjudgedDrivers) = try DriverDocuments.table(reader, request, units: driving.units, driving: driving)
        let (classTable, unjudgedClass) = try LicenceClass.table(reader, request, units: driving.units, driving: driving)
        let dueTable = try DocumentsDue.table(reader, request, driving: driving)
        let register = try DVIRRegister.table(reader, request)
        let retention = try DVIRRetention.table(reader, request)

        let sources = try ReportSource.fetch(reader, union: ["SELECT DISTINCT source_file_id FROM dvir WHERE signed_at >= ?1 AND signed_at < ?2",
                                                         "SELECT DISTINCT source_file_id FROM dvir_defect WHERE created_at >= ?1 AND created_at < ?2"],
                                             arguments: [.instant(request.start), .instant(request.end)])
        var quality = DataQuality()
        let noTelematics = assets.filter { days[$0.id] == nil }.map(\.unit)
        quality.add("Vehicles with no telematics, or a single reading, in the period (days operated unknown)", noTelematics.count,
                    noTelematics.isEmpty ? "none" : noTelematics.prefix(20).joined(separator: ", ") + (noTelematics.count > 20 ? ", …" : ""))
        quality.add("Safety defects that could not be judged (no telematics while open)", unjudged.count,
                    unjudged.isEmpty ? "none" : unjudged.prefix(10).joined(separator: "; "))
        if !unjudgedDrivers.isEmpty {
            quality.add("Drivers who drove with no licence or medical card expiry on file (not judged; add license_expiry and medical_expiry to the drivers file)",
                        unjudgedDrivers.count, unjudgedDrivers.prefix(20).joined(separator: "; ") + (unjudgedDrivers.count > 20 ? "; …" : ""))
        }
        if !unjudgedClass.drivers.isEmpty {
            quality.add("Drivers who drove a vehicle needing a CDL with no licence class on file (not judged; add license_class to the drivers file)",
                        unjudgedClass.drivers.count, unjudgedClass.drivers.prefix(20).joined(separator: "; ") + (unjudgedClass.drivers.count > 20 ? "; …" : ""))
        }
        if !unjudgedClass.vehicles.isEmpty {
            quality.add("Vehicles driven with no CDL class on file (licence class not judged; add cdl_class to the assets file)",
                        unjudgedClass.vehicles.count, unjudgedClass.vehicles.prefix(20).joined(separator: ", ") + (unjudgedClass.vehicles.count > 20 ? ", …" : ""))
        }
        if request.carrier.name == nil || request.carrier.usdotNumber == nil {
            quality.add("Carrier name or USDOT number not set (an auditor's first question)", 1, "set them with `fleetkit init --carrier-name NAME --usdot NUMBER`")
        }
        // Defects read before their DVIR export and still waiting for it are in no table above;
        // the line appears only when there are some, so that it is noticed.
        // A warehouse not yet migrated to v10-dvir-defect-pending (read-only since an upgrade)
        // has no such defects: they were rejects, counted with the others.
        let pendingLine = "COALESCE(dvir_key, 'no DVIR named') || ' ' || source_key"
        let pending = try !reader.tableExists("dvir_defect_pending") ? [] : reader.column("""
            SELECT \(pendingLine) FROM dvir_defect_pending
            WHERE created_at IS NULL OR (created_at >= ?1 AND created_at < ?2) ORDER BY \(reader.dialect.ascending(pendingLine, text: true))
            """, [.instant(request.start), .instant(request.end)], as: String.self)
        if !pending.isEmpty {
            quality.add("Defects waiting for their DVIR (imported before it; not counted above until the DVIR export is imported)", pending.count,
                        pending.prefix(10).joined(separator: "; ") + (pending.count > 10 ? "; …" : ""))
        }
        try quality.addCommon(reader, request, sources: sources)
        let sorted = repairHours.sorted()
        let median = sorted.isEmpty ? nil : sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        // Decided findings are counted apart, never left out: an auditor sees what was open.
        let decided = allFindings.count - Int(count("chain_findings_open"))
        if decided > 0 {
            quality.add("Signature-chain findings a compliance officer accepted or disputed (listed with the reason; not counted open)", decided,
                        "\(Int(count("chain_findings_accepted"))) accepted, \(Int(count("chain_findings_disputed"))) disputed")
        }
        var metadata = ReportMetadata(
            report: Self.name, title: Self.title(request), period: request.period, timeZone: request.zone.identifier, units: request.units, currency: request.currency,
            parameters: [("dvir_policy", request.dvirPolicy.statement), ("carrier", request.carrier.line), ("carrier_address", request.carrier.address ?? "not set"),
                         ("operated_day", "distance > 0.5 km or engine > 6 min"),
                         ("assets", request.assets?.joined(separator: ",") ?? "all vehicles and trailers")],
            methods: ["Days operated come from the daily rollup (distance above 0.5 km or engine time above 6 minutes in the local day).",
                      "An end-of-day report is a post-trip DVIR signed that local day; under policy law it is owed on days a defect was reported, under passenger and every_day on every day operated.",
                      "A safety-critical defect (the source's flag) is open from its report until its repair is certified (resolved_at); each local day the vehicle moved more than 0.5 km while it was open is a violation.",
                      "Signature-chain rules and the 396.11(a)(1) items are in docs/METRICS.md, \"DVIR signature chain\".",
                      "A driver drove on a day with a DVIR they signed, a trip they drove, an assignment to a vehicle that operated, or an HOS driving status; a licence or medical card is valid through its expiry date; a class A licence covers vehicles needing B and C, B covers C (docs/METRICS.md, \"Driver qualification\").",
                      "A finding a compliance officer accepted or disputed (append-only, with the reason, who and when) stays listed with its decision and is counted apart from the open ones.",
                      "Median hours to repair covers defects certified in the period."],
            headlines: [.count("end_of_day_reports", count("end_of_day_reports")), .count("pre_trip_inspections", count("pre_trip_inspections")),
                        .count("defects", count("defects")), .count("violations", count("violation_days")),
                        .count("days_missing_report", count("days_missing_report")), .count("chain_findings", count("chain_findings")),
                        .count("chain_findings_open", count("chain_findings_open")), .count("chain_findings_accepted", count("chain_findings_accepted")),
                        .count("chain_findings_disputed", count("chain_findings_disputed"))]
                + (median.map { [ReportHeadline("median_hours_to_repair", ($0 * 10).rounded() / 10, .hours)] } ?? []),
            generatedAt: request.generatedAt, sources: sources)
        metadata.subject = request.assets.flatMap { $0.isEmpty ? nil : $0.joined(separator: "_") }
        return (ReportOutput(metadata: metadata, tables: [summaryTable, chainTable, violationTable, driverTable, classTable, dueTable, register, retention], dataQuality: quality.table), allFindings)
    }
}

/// The local days each asset operated in the period (docs/METRICS.md: distance above 0.5 km or
/// engine time above 6 minutes). An asset absent from the map has no rollup rows at all: its
/// operating days are unknown, not zero.
enum OperatedDays {
    static func fetch(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> [Int64: Set<CivilDate>] {
        var out: [Int64: Set<CivilDate>] = [:]
        // Streamed, not held: a year of 1,000 vehicles is 365,000 rollup rows, of which only
        // the operated days are kept.
        try reader.forEach("""
            SELECT asset_id, day, COALESCE(distance_m, 0) > 500 OR COALESCE(engine_s, 0) > 360 FROM asset_day WHERE day >= ? AND day <= ?
            """, [.text(request.period.from.description), .text(request.period.to.description)]) { r in
            let asset: Int64 = try r[0]
            if try r[2] as Bool, let d = CivilDate(try r[1] as String) { out[asset, default: []].insert(d) } else if out[asset] == nil { out[asset] = [] }
        }
        return out
    }
}
