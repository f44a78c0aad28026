import GRDB
import FleetCore

/// Derived tables follow from the facts: a sample of asset-days, spread evenly over the
/// warehouse (`VerifyContext.sampleDays`; every one when the sample is at least their number),
/// is derived again from the stored facts with the warehouse's zone and trip rules, and every
/// `asset_day`, derived trip (`source = 'gps'`) and `meter_anomaly` row of the sampled assets must
/// come out exactly as stored. Whatever the recomputation rewrites beyond the sampled days (it
/// widens to whole trips, `TripDetection`) is compared too.
///
/// Runs in a write transaction that the verifier always rolls back: derivation writes the rows
/// it computes, and the warehouse must not change. Why a sample: re-deriving a year of a large
/// fleet costs what its import cost; the other checks read every row.
public struct RederiveSampleCheck: WarehouseCheck {
    public let name = "rederive_sample"
    public let rule = "a sample of asset-days spread evenly over the warehouse, derived again from the facts (same zone and trip rules), gives exactly the stored asset_day, derived trip and meter_anomaly rows of those assets"
    public let rewrites = true
    public init() {}

    public func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int {
        guard context.sampleDays > 0 else { return 0 }
        let labels = try AssetLabels(db)
        let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset_day") ?? 0
        guard total > 0 else { return 0 }
        let k = min(context.sampleDays, total)
        var picked: [Int64: [String]] = [:]
        var order: [Int64] = []
        do {
            let q = try CachedQuery(db, "SELECT asset_id, day FROM asset_day ORDER BY asset_id, day")
            defer { q.reset() }
            var i = 0
            while try q.step() {
                // Row i is picked when the running share i·k/n passes a whole number: k rows, evenly spread.
                if (i + 1) * k / total > i * k / total {
                    let asset = q.int64(0)
                    if picked[asset] == nil { order.append(asset) }
                    picked[asset, default: []].append(q.text(1))
                }
                i += 1
            }
        }
        let zone = context.settings.zone
        for asset in order {
            let before = try Self.snapshot(db, asset, zone)
            var touched = TouchedTimeline()
            for day in picked[asset]! {
                guard let d = CivilDate(day) else { continue }
                touched.touch(asset, zone.start(of: d))
                touched.touch(asset, zone.start(of: d.adding(days: 1)) - 1)
            }
            try Derivations.refresh(db, touched: touched, settings: context.settings)
            let after = try Self.snapshot(db, asset, zone)
            for (table, stored) in before {
                let derived = after[table] ?? [:]
                for key in Set(stored.keys).union(derived.keys).sorted() {
                    let s = stored[key], d = derived[key]
                    guard s?.values != d?.values else { continue }
                    let what: String
                    switch (s, d) {
                    case let (s?, d?):
                        let diffs = zip(s.columns, zip(s.values, d.values)).filter { $0.1.0 != $0.1.1 }
                            .map { "\($0.0) stored \($0.1.0), derived \($0.1.1)" }
                        what = "\(table) \(key) differs from what the facts give: " + diffs.joined(separator: "; ")
                    case (_?, nil):
                        what = "\(table) \(key) is stored, but the facts give no such row"
                    default:
                        what = "\(table) \(key) is missing: the facts give " + zip(d!.columns, d!.values).map { "\($0) \($1)" }.joined(separator: ", ")
                    }
                    findings.add(asset: labels[asset], day: s?.day ?? d?.day, trip: s?.trip, what, fix: VerifyFix.rebuild)
                }
            }
        }
        return picked.values.reduce(0) { $0 + $1.count }
    }

    struct Stored {
        var columns: [String]
        var values: [DatabaseValue]
        var day: String?
        var trip: Int64?
    }

    /// The asset's derived rows per table, keyed by their natural key, without row ids.
    static func snapshot(_ db: Database, _ asset: Int64, _ zone: FleetZone) throws -> [String: [String: Stored]] {
        var out: [String: [String: Stored]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM asset_day WHERE asset_id = ?", arguments: [asset]) {
            let day: String = row["day"]
            out["asset_day", default: [:]][day] = Stored(columns: Array(row.columnNames), values: Array(row.databaseValues), day: day)
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM trip WHERE asset_id = ? AND source = ?", arguments: [asset, TripDetection.source]) {
            let start: Int64 = row["start_at"], id: Int64 = row["id"]
            let columns = Array(row.columnNames).filter { $0 != "id" }
            let values = zip(row.columnNames, row.databaseValues).filter { $0.0 != "id" }.map(\.1)
            out["trip", default: [:]]["starting \(Timestamp.iso(start))"] = Stored(columns: columns, values: values, day: zone.day(of: start).description, trip: id)
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM meter_anomaly WHERE asset_id = ?", arguments: [asset]) {
            let meter: String = row["meter"], at: Int64 = row["at"]
            out["meter_anomaly", default: [:]]["\(meter) at \(Timestamp.iso(at))"] = Stored(columns: Array(row.columnNames), values: Array(row.databaseValues),
                                                                                          day: zone.day(of: at).description)
        }
        // A table with no rows before may have some after.
        for t in ["asset_day", "trip", "meter_anomaly"] where out[t] == nil { out[t] = [:] }
        return out
    }
}
