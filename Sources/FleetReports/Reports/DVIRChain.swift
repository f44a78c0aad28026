import FleetCore
import FleetWarehouse

/// The signature chain of each defect on a DVIR: reported by the driver → certified by the
/// carrier (repaired, or repair not needed; 49 CFR 396.11(a)(3)) → reviewed by the next driver,
/// who signs that the certification is there (396.13(b), (c)). Each broken link is a finding with
/// the rows that show it, so an auditor can check it without the warehouse
/// (docs/METRICS.md, "DVIR signature chain").
enum DVIRChain {
    /// The rules, each with the regulation it reads.
    enum Rule: String, CaseIterable {
        case reviewMissing = "review_missing"
        case reviewBeforeCertification = "review_before_certification"
        case certifiedWhileMoving = "certified_while_moving"
        case drivenBeforeCertification = "driven_before_certification"
        case repairRejected = "repair_rejected"

        var regulation: String {
            switch self {
            case .reviewMissing: return "49 CFR 396.13(b), (c)"
            case .reviewBeforeCertification: return "49 CFR 396.13(c)"
            case .certifiedWhileMoving: return "49 CFR 396.11(a)(3)"
            case .drivenBeforeCertification: return "49 CFR 396.11(a)(3)"
            case .repairRejected: return "49 CFR 396.13(c), 396.11(a)(3)"
            }
        }
    }

    /// One broken link: the rule, what it found and why, on the defect's signatures (`Link`),
    /// which are the row's reported, certified and reviewed columns as they stand.
    struct Finding {
        var unit: String
        var rule: Rule
        var finding: String
        var link: Link
        /// The rows that show it: times, signatures, positions, engine events, kilometres.
        var evidence: String

        var dvir: String { dvirLabel(link.dvirKey) }
        /// A compliance officer's latest decision on it; nil while it is open.
        var decision: DVIRFindingDecision?

        /// The id `fleetkit review finding` takes (`DVIRFindingDecision`).
        var id: String { DVIRFindingDecision.id(dvir: dvir, rule: rule, component: link.component) }
        /// open, accepted or disputed.
        var state: String { decision?.state.rawValue ?? "open" }
    }

    /// A certification is judged "while the vehicle moved" on what telematics saw this long
    /// either side of it.
    static let aroundMs: Int64 = 15 * 60_000
    /// Movement in that window above this is driving, not a yard shuffle.
    static let movingMetres = 200.0
    /// A position faster than this (about 5 mph) is the vehicle being driven.
    static let movingSpeedMps = 2.2

    static func columns(_ request: ReportRequest) -> [TableColumn<Finding>] {
        [.text("finding_id", "Finding id") { $0.id },
         .text("unit", "Unit") { $0.unit }, .text("dvir", "DVIR") { $0.dvir }, .text("component", "Defect") { $0.link.component },
         .text("rule", "Rule") { $0.rule.rawValue }, .text("regulation", "Regulation") { $0.rule.regulation },
         .text("finding", "Finding", role: .note) { $0.finding },
         .text("decision", "Decision", role: .note) { $0.state },
         .text("decision_reason", "Decision reason", role: .note) { $0.decision?.reason },
         .text("decided_by", "Decided by", role: .note) { $0.decision?.by },
         TableColumn(ReportColumn("decided_at", "Decided at", .datetime), role: .note) { $0.decision.map { .datetime($0.at) } ?? .null },
         TableColumn(ReportColumn("reported", "Reported", .datetime), role: .note) { .datetime($0.link.created) },
         TableColumn(ReportColumn("certified", "Certified", .datetime), role: .note) { $0.link.resolved.map { .datetime($0) } ?? .null },
         .text("certification", "Certification", role: .note) { $0.link.certification },
         TableColumn(ReportColumn("reviewed", "Reviewed", .datetime), role: .note) { $0.link.reviewedAt.map { .datetime($0) } ?? .null },
         .text("reviewed_by", "Reviewed by", role: .note) { $0.link.reviewedBy },
         .text("evidence", "Evidence", role: .note) { $0.evidence }]
    }

    /// A defect with its DVIR's signatures: what each rule reads and each finding shows.
    struct Link {
        var dvirID: Int64
        var dvirKey: String
        var signedAt: Int64
        var component: String
        var created: Int64
        var resolved: Int64?
        var resolvedBy: String?
        var certification: String?
        var mechanicName: String?
        var reviewedAt: Int64?
        var reviewedBy: String?
    }

    static func dvirLabel(_ key: String) -> String {
        for prefix in ["dvir:", "samsara-dvir:"] where key.hasPrefix(prefix) { return String(key.dropFirst(prefix.count)) }
        return key
    }

    /// The chain findings of one vehicle's DVIRs signed in the period (the driving rule is the
    /// report's violations, added by the caller).
    static func findings(_ reader: any WarehouseReader, _ request: ReportRequest, asset: Int64, unit: String) throws -> [Finding] {
        let d = reader.dialect
        let links = try reader.all("""
            SELECT v.id, v.source_key, v.signed_at, d.component, COALESCE(d.created_at, v.signed_at), d.resolved_at, d.resolved_by, d.certification,
                   v.mechanic_name, v.reviewed_at, v.reviewed_by
            FROM dvir v JOIN dvir_defect d ON d.dvir_id = v.id
            WHERE v.asset_id = ? AND v.type IN ('pre_trip', 'post_trip') AND v.signed_at >= ? AND v.signed_at < ?
            ORDER BY v.signed_at, \(d.ascending("v.source_key", text: true)), \(d.ascending("d.source_key", text: true))
            """, [.integer(asset), .instant(request.start), .instant(request.end)]) {
            Link(dvirID: try $0[0], dvirKey: try $0[1], signedAt: try $0[2], component: try $0[3], created: try $0[4], resolved: try $0[5], resolvedBy: try $0[6],
                 certification: try $0[7], mechanicName: try $0[8], reviewedAt: try $0[9], reviewedBy: try $0[10])
        }
        var out: [Finding] = []
        func t(_ ms: Int64?) -> String { ms.map { ZonedTime($0, in: request.zone.timeZone).display } ?? "none" }
        func finding(_ l: Link, _ rule: Rule, _ text: String, _ evidence: String) -> Finding {
            Finding(unit: unit, rule: rule, finding: text, link: l, evidence: evidence)
        }
        // Review missing: one finding per DVIR (the review is the DVIR's signature, not a defect's).
        var seenDVIR = Set<Int64>()
        for l in links where l.reviewedAt == nil && !seenDVIR.contains(l.dvirID) {
            seenDVIR.insert(l.dvirID)
            let all = links.filter { $0.dvirID == l.dvirID }
            let certified = all.compactMap(\.resolved).max()
            var evidence = "defects: " + all.map { "\($0.component) reported \(t($0.created)), certified \(t($0.resolved))" }.joined(separator: "; ")
            if let certified {
                switch try Movement.metres(reader, asset: asset, from: certified, to: request.end) {
                case let m? where m > movingMetres:
                    evidence += "; driven \(distanceText(m, request)) after the certification up to the period's end"
                case _?: evidence += "; not driven after the certification up to the period's end"
                case nil: evidence += "; no telematics after the certification"
                }
            }
            out.append(finding(l, .reviewMissing, "no next-driver review signature on a DVIR that lists defects", evidence))
        }
        for l in links {
            // Review before certification: the next driver signed for a certification not yet made.
            if let reviewed = l.reviewedAt, l.resolved.map({ reviewed < $0 }) ?? true {
                out.append(finding(l, .reviewBeforeCertification, l.resolved == nil ? "reviewed while the defect is not certified" : "reviewed before the repair was certified",
                                   "reviewed \(t(reviewed)) by \(l.reviewedBy ?? "unnamed"); certified \(t(l.resolved))"
                                   + (l.resolvedBy ?? l.mechanicName).map { " by \($0)" }.orEmpty))
            }
            // Certified while the vehicle moved: positions or the engine around the certification.
            if let resolved = l.resolved, let evidence = try moving(reader, asset: asset, at: resolved, request) {
                out.append(finding(l, .certifiedWhileMoving, "certified while the vehicle was moving or running", evidence))
            }
            // Repair rejected: the next driver inspection after the certification lists the same component again.
            // The same component twice on one DVIR: its first-recorded defect (the lowest id).
            if let resolved = l.resolved, let next = try reader.all("""
                SELECT v.id, v.source_key, v.signed_at FROM dvir v WHERE v.asset_id = ? AND v.type IN ('pre_trip', 'post_trip') AND v.signed_at > ?
                ORDER BY v.signed_at, v.id LIMIT 1
                """, [.integer(asset), .instant(resolved)], { (id: try $0[0] as Int64, key: try $0[1] as String, signed: try $0[2] as Int64) }).first,
               let again = try reader.all("SELECT COALESCE(created_at, ?), comment, defect_type FROM dvir_defect WHERE dvir_id = ? AND component = ? ORDER BY id LIMIT 1",
                                          [.instant(next.signed), .integer(next.id), .text(l.component)], {
                                              (at: try $0[0] as Int64, comment: try $0[1] as String?, type: try $0[2] as String?) }).first {
                let text = [again.type, again.comment].compactMap { $0 }.joined(separator: ": ")
                out.append(finding(l, .repairRejected, "the next inspection after the certification reports the same component again",
                                   "certified \(t(resolved)); DVIR \(dvirLabel(next.key)) signed \(t(next.signed)) reports \(l.component) again"
                                   + (text.isEmpty ? "" : " (\(text))") + " at \(t(again.at))"))
            }
        }
        return out
    }

    /// The evidence that the vehicle moved or ran at `at` (positions and engine events within
    /// `aroundMs`), or nil when telematics shows it still or shows nothing.
    static func moving(_ reader: any WarehouseReader, asset: Int64, at: Int64, _ request: ReportRequest) throws -> String? {
        let from = at - aroundMs, to = at + aroundMs
        func t(_ ms: Int64) -> String { ZonedTime(ms, in: request.zone.timeZone).display }
        var evidence: [String] = []
        try reader.forEach("""
            SELECT at, lat, lon, speed_mps FROM position WHERE asset_id = ? AND at >= ? AND at <= ? AND speed_mps > ? ORDER BY at LIMIT 3
            """, [.integer(asset), .instant(from), .instant(to), .real(movingSpeedMps)]) { p in
            evidence.append("position \(t(try p[0])) at \(try p[1] as Double), \(try p[2] as Double) moving \(((try p[3] as Double) * 3.6 * 10).rounded() / 10) km/h")
        }
        if evidence.isEmpty, let moved = try Movement.metres(reader, asset: asset, from: from, to: to), moved > movingMetres {
            evidence.append("moved \(distanceText(moved, request)) between \(t(from)) and \(t(to))")
        }
        // The engine state at the certification: the last engine event at or before it, if recent.
        if let engine = try reader.all("SELECT at, state FROM engine_event WHERE asset_id = ? AND at <= ? AND at >= ? ORDER BY at DESC LIMIT 1",
                                       [.integer(asset), .instant(at), .instant(from)], { (at: try $0[0] as Int64, state: try $0[1] as String) }).first,
           engine.state == "on" {
            evidence.append("engine on since \(t(engine.at))")
        }
        return evidence.isEmpty ? nil : "certified \(t(at)); " + evidence.joined(separator: "; ")
    }

    static func distanceText(_ metres: Double, _ request: ReportRequest) -> String {
        "\((request.distance(metres) * 10).rounded() / 10) \(request.distanceUnit)"
    }
}

private extension Optional where Wrapped == String {
    var orEmpty: String { self ?? "" }
}
