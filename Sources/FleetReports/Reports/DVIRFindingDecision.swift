import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// A compliance officer's word on a DVIR signature-chain finding (`fleetkit review finding
/// accept|dispute`): accepted (the finding stands; the reason says what was done) or disputed
/// (the officer says it is wrong, and why). Kept append-only with who and when in
/// `dvir_finding_decision`; the latest decision of a finding is its state. A decided finding
/// stays in the report beside its decision and reason: it is counted apart, never removed.
///
/// A finding is named by its id, `DVIR/rule` for the DVIR-wide rule (review missing) and
/// `DVIR/rule/component` for a defect's: what the source data names, so a decision outlives
/// re-imports and re-derivations and applies again when the same DVIR is read again.
public struct DVIRFindingDecision: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        case accepted, disputed
    }

    public var state: State
    public var reason: String
    public var by: String
    public var at: Int64

    /// The finding id: `DVIR/rule` or `DVIR/rule/component` (the component may hold '/').
    static func id(dvir: String, rule: DVIRChain.Rule, component: String) -> String {
        rule == .reviewMissing ? "\(dvir)/\(rule.rawValue)" : "\(dvir)/\(rule.rawValue)/\(component)"
    }

    /// The latest decision of every decided finding, by finding id; none before the warehouse
    /// has the table (read-only since an upgrade).
    static func latest(_ reader: any WarehouseReader) throws -> [String: DVIRFindingDecision] {
        guard try reader.tableExists("dvir_finding_decision") else { return [:] }
        var out: [String: DVIRFindingDecision] = [:]
        try reader.forEach("SELECT dvir, rule, component, decision, reason, decided_by, decided_at FROM dvir_finding_decision ORDER BY id", []) { r in
            guard let rule = DVIRChain.Rule(rawValue: try r[1]), let state = State(rawValue: try r[3]) else { return }
            out[id(dvir: try r[0], rule: rule, component: try r[2])] = DVIRFindingDecision(state: state, reason: try r[4], by: try r[5], at: try r[6])
        }
        return out
    }

    /// An id that names no finding FleetKit finds: what was given, and the findings of that DVIR
    /// (or every rule, when the id's shape is wrong) to choose from.
    public struct UnknownFinding: Error, CustomStringConvertible {
        public var value: String
        public var reason: String
        public var candidates: [String]
        public var description: String { "no DVIR finding '\(value)': \(reason)" }
    }

    /// Records `state` with `reason` for the finding `id`, after checking that the DVIR
    /// compliance report finds it (in the local month its DVIR was signed, or the next, where a
    /// defect open across the month's end was driven). Returns the unit and the finding's text.
    /// - throws: `UnknownFinding` for an id that names none; `FleetError.invalidArgument` for an
    ///   empty reason.
    public static func record(_ warehouse: Warehouse, finding id: String, _ state: State, reason: String, by person: String,
                              at now: Int64 = Timestamp.now()) throws -> (unit: String, finding: String) {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else {
            throw FleetError.invalidArgument(name: "--reason", value: "", hint: "say why the finding is \(state.rawValue): an auditor reads it beside the finding")
        }
        let parts = id.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let rules = DVIRChain.Rule.allCases.map(\.rawValue)
        guard parts.count >= 2, !parts[0].isEmpty, let rule = DVIRChain.Rule(rawValue: parts[1]) else {
            throw UnknownFinding(value: id, reason: "a finding id is DVIR/rule or DVIR/rule/component, as the report's \"Finding id\" column shows; the rules are "
                                 + rules.joined(separator: ", "), candidates: [])
        }
        let dvir = parts[0], component = rule == .reviewMissing ? "" : (parts.count == 3 ? parts[2] : "")
        let settings = try warehouse.settings()
        return try warehouse.pool.write { db in
            let dvirs = try Row.fetchAll(db, sql: """
                SELECT v.signed_at, a.unit_number FROM dvir v JOIN asset a ON a.id = v.asset_id
                WHERE v.source_key IN ('dvir:' || ?1, 'samsara-dvir:' || ?1, ?1)
                """, arguments: [dvir])
            guard let first = dvirs.first, let unit: String = first[1] else {
                throw UnknownFinding(value: id, reason: "no DVIR \(dvir) with a unit number is in the warehouse", candidates: [])
            }
            if dvirs.count > 1 {
                throw UnknownFinding(value: id, reason: "\(dvirs.count) DVIRs from different sources are labelled \(dvir); FleetKit cannot tell which is meant", candidates: [])
            }
            let day = settings.zone.day(of: first[0])
            var seen: [String] = []
            for month in [ReportPeriod.month(day.year, day.month), ReportPeriod.month(day.adding(months: 1).year, day.adding(months: 1).month)] {
                let request = ReportRequest(period: month, zone: settings.zone, units: settings.units, currency: settings.currency, assets: [unit],
                                            dvirPolicy: settings.dvirPolicy, generatedAt: now, asOf: month.to, carrier: settings.carrier)
                let findings = try DVIRComplianceReport.chainFindings(db, request)
                for f in findings where f.dvir == dvir {
                    let fid = Self.id(dvir: f.dvir, rule: f.rule, component: f.link.component)
                    if fid == Self.id(dvir: dvir, rule: rule, component: component) {
                        try db.execute(sql: """
                            INSERT INTO dvir_finding_decision (dvir, rule, component, unit, decision, reason, decided_by, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                            """, arguments: [dvir, rule.rawValue, component, unit, state.rawValue, reason, person, now])
                        return (unit, f.finding)
                    }
                    if !seen.contains(fid) { seen.append(fid) }
                }
            }
            throw UnknownFinding(value: id, reason: seen.isEmpty ? "the DVIR compliance report finds nothing on DVIR \(dvir) (\(unit))"
                                 : "DVIR \(dvir) (\(unit)) has other findings", candidates: seen)
        }
    }
}
