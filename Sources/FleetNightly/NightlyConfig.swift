import Foundation
import Yams
import FleetCore
import FleetWarehouse
import FleetReports

/// `fleetkit.yml`: everything the nightly job needs (docs/OPERATIONS.md has an annotated copy).
/// Unknown keys are an error, not ignored: a misspelt `quarantine` must not silently send failed
/// files nowhere.
public struct NightlyConfig: Decodable, Sendable {
    public var warehouse: String
    public var inbox: String
    public var archive: String
    public var quarantine: String
    public var reports: String
    public var settleSeconds: Double = 60
    /// Import only files with a `name.done` or `name.ok` beside them (SettleRule).
    public var requireDoneMarker = false
    public var timezone: String = "UTC"
    public var currency: String = "USD"
    public var units: Units.System = .metric
    public var dvirPolicy: String = "every_day"
    /// Every registered report and format by default (`ReportRegistry`, `ReportFormats`), so a
    /// report added to the registry is refreshed without editing this file.
    public var reportsToRefresh: [String] = NightlyConfig.reportNames
    public var periods: [String] = ["month_to_date", "previous_month"]
    public var formats: [String] = NightlyConfig.formatNames
    /// What a report with incomplete figures does to the run (docs/OPERATIONS.md).
    public var reportMode: ReportMode = .partial
    /// The octal mode of report files (`0640` shares them with a group), the setting
    /// `FLEETKIT_REPORT_MODE` is for `fleetkit report`; nil: that variable, else 0600.
    public var reportFileMode: String? = nil
    public var attribution: Attribution = Attribution()

    /// `partial` (the default): a report whose figures are incomplete (the month still running,
    /// costs without an exchange rate) is written, says "partial" in its header, is listed in
    /// `partial_reports`, and the exit code stays as the imports make it. `strict`: the same, and
    /// the run exits 1, as `fleetkit report` does without `--allow-partial`.
    public enum ReportMode: String, Decodable, Sendable, CaseIterable { case partial, strict }
    public var trips: TripRules = TripRules()
    /// Close each month this many days after it ends, before the night's imports (`MonthEnd`):
    /// a file that would then change its figures is quarantined as a restatement. nil: the job
    /// closes nothing (`fleetkit close` does).
    public var closeAfterDays: Int? = nil

    public struct Attribution: Decodable, Sendable {
        public var byFolder = true
        enum CodingKeys: String, CodingKey { case byFolder = "by_folder" }
        public init() {}
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            byFolder = try c.decodeIfPresent(Bool.self, forKey: .byFolder) ?? true
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case warehouse, inbox, archive, quarantine, reports, timezone, currency, units, periods, formats, attribution, trips
        case settleSeconds = "settle_seconds", requireDoneMarker = "require_done_marker", dvirPolicy = "dvir_policy", reportsToRefresh = "reports_to_refresh"
        case reportMode = "report_mode", reportFileMode = "report_file_mode"
        case closeAfterDays = "close_after_days"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        warehouse = try c.decode(String.self, forKey: .warehouse)
        inbox = try c.decode(String.self, forKey: .inbox)
        archive = try c.decode(String.self, forKey: .archive)
        quarantine = try c.decode(String.self, forKey: .quarantine)
        reports = try c.decode(String.self, forKey: .reports)
        settleSeconds = try c.decodeIfPresent(Double.self, forKey: .settleSeconds) ?? settleSeconds
        requireDoneMarker = try c.decodeIfPresent(Bool.self, forKey: .requireDoneMarker) ?? requireDoneMarker
        timezone = try c.decodeIfPresent(String.self, forKey: .timezone) ?? timezone
        currency = try c.decodeIfPresent(String.self, forKey: .currency) ?? currency
        units = try c.decodeIfPresent(Units.System.self, forKey: .units) ?? units
        dvirPolicy = try c.decodeIfPresent(String.self, forKey: .dvirPolicy) ?? dvirPolicy
        reportsToRefresh = try c.decodeIfPresent([String].self, forKey: .reportsToRefresh) ?? reportsToRefresh
        periods = try c.decodeIfPresent([String].self, forKey: .periods) ?? periods
        formats = try c.decodeIfPresent([String].self, forKey: .formats) ?? formats
        reportMode = try c.decodeIfPresent(ReportMode.self, forKey: .reportMode) ?? reportMode
        reportFileMode = try c.decodeIfPresent(String.self, forKey: .reportFileMode)
        attribution = try c.decodeIfPresent(Attribution.self, forKey: .attribution) ?? attribution
        trips = try c.decodeIfPresent(TripRules.self, forKey: .trips) ?? trips
        closeAfterDays = try c.decodeIfPresent(Int.self, forKey: .closeAfterDays)
    }

    /// Reads and checks a config file. Relative paths in it are relative to the file's folder,
    /// so a config works the same from cron (cwd /) and from a shell.
    public static func load(_ path: String) throws -> NightlyConfig {
        let url = URL(fileURLWithPath: path)
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw FleetError.invalidArgument(name: "--config", value: path, hint: "the file cannot be read: \(error.localizedDescription)")
        }
        guard text.utf8.count <= YAMLAliasCheck.maxBytes else {
            throw FleetError.invalidArgument(name: "--config", value: path, hint: "the file is \(text.utf8.count) bytes; a config is a few hundred (at most \(YAMLAliasCheck.maxBytes))")
        }
        if let problem = YAMLAliasCheck.firstProblem(text) {
            throw FleetError.invalidArgument(name: "--config", value: path,
                                             hint: "line \(problem.line) has \(problem.what); the config takes no YAML anchors, aliases or merge keys: write each value where it is used")
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw FleetError.invalidArgument(name: "--config", value: path, hint: "not valid YAML: \(error)")
        }
        if let mapping = node?.mapping {
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            let unknown = mapping.keys.compactMap(\.string).filter { !known.contains($0) }
            if !unknown.isEmpty {
                throw FleetError.invalidArgument(name: "--config", value: path,
                                                 hint: "unknown key(s) \(unknown.sorted().joined(separator: ", ")); the keys are \(known.sorted().joined(separator: ", "))")
            }
        }
        var config: NightlyConfig
        do { config = try YAMLDecoder().decode(NightlyConfig.self, from: text) } catch let e as Swift.DecodingError {
            throw FleetError.invalidArgument(name: "--config", value: path, hint: Self.describe(e))
        }
        let base = url.deletingLastPathComponent()
        func resolve(_ p: String) -> String { NightlyPaths.canonical(p.hasPrefix("/") ? p : base.appendingPathComponent(p).path) }
        // A PostgreSQL URL is no path to resolve: refused by name (docs/OPERATIONS.md "PostgreSQL").
        try Warehouse.refusePostgres(config.warehouse)
        config.warehouse = resolve(config.warehouse)
        config.inbox = resolve(config.inbox)
        config.archive = resolve(config.archive)
        config.quarantine = resolve(config.quarantine)
        config.reports = resolve(config.reports)
        try config.validate(path)
        return config
    }

    /// Every problem of the config at once, so one edit fixes them all instead of one per run.
    /// Report and format names are checked against `ReportRegistry` and `ReportFormats`: a name
    /// that would be skipped (`costs`, `pdf`) is an error like an unknown key, and a report added
    /// to the registry is accepted here without editing this file.
    func validate(_ path: String) throws {
        let problems = self.problems()
        guard !problems.isEmpty else { return }
        if problems.count == 1, let p = problems.first { throw FleetError.invalidArgument(name: "\(path): \(p.key)", value: p.value, hint: p.hint) }
        throw FleetError.invalidArgument(name: "--config", value: path,
                                         hint: "\(problems.count) problems: " + problems.map { "\($0.key) '\(QuotedText.cut($0.value))': \($0.hint)" }.joined(separator: "; "))
    }

    /// One wrong value: its key, the value as written, and what would be right.
    public struct Problem: Sendable, Equatable {
        public var key: String, value: String, hint: String
    }

    /// The longest `settle_seconds`: a file unchanged for a week has settled. Larger values
    /// (`.inf`) meant nothing and trapped the job when a file waited.
    public static let maxSettleSeconds: Double = 7 * 86_400

    /// The report names `reports_to_refresh` accepts, from the report registry.
    public static var reportNames: [String] { ReportRegistry.all.map { $0.name } }
    /// The format names `formats` accepts, from the format registry.
    public static var formatNames: [String] { ReportFormats.names }

    func problems() -> [Problem] {
        var problems: [Problem] = []
        func bad(_ key: String, _ value: String, _ hint: String) { problems.append(Problem(key: key, value: value, hint: hint)) }
        if FleetZone(identifier: timezone) == nil { bad("timezone", timezone, "use an IANA name such as America/Chicago") }
        if let n = closeAfterDays, !(0...366).contains(n) { bad("close_after_days", String(n), "0…366 days after the month ends") }
        if !Money.isCurrencyCode(currency) { bad("currency", currency, "use an ISO 4217 code such as USD") }
        if DVIRPolicy(text: dvirPolicy) == nil { bad("dvir_policy", dvirPolicy, DVIRPolicy.names) }
        if let problem = trips.problem() { bad("trips", (try? trips.storedText()) ?? "", problem) }
        if !(settleSeconds >= 0 && settleSeconds <= Self.maxSettleSeconds) {
            bad("settle_seconds", String(settleSeconds), "a number of seconds from 0 to \(Int(Self.maxSettleSeconds)) (7 days)")
        }
        for p in periods where NightlyPeriod.parse(p) == nil {
            bad("periods", p, "month_to_date, previous_month, quarter_to_date, previous_quarter, or YYYY-MM")
        }
        if let m = reportFileMode, !(mode_t(m, radix: 8).map { $0 & ~0o777 == 0 && $0 & 0o600 == 0o600 } ?? false) {
            bad("report_file_mode", m, "an octal file mode that lets the owner read and write, such as \"0600\" or \"0640\"")
        }
        let knownReports = Self.reportNames, knownFormats = Self.formatNames
        for r in reportsToRefresh where !knownReports.contains(r) {
            bad("reports_to_refresh", r, "not a report; the reports are \(knownReports.joined(separator: ", "))")
        }
        for f in formats where !knownFormats.contains(f) {
            bad("formats", f, "not a report format; the formats are \(knownFormats.joined(separator: ", "))")
        }
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: inbox, isDirectory: &isDir) || !isDir.boolValue {
            bad("inbox", inbox, "the folder does not exist; create it or fix the path")
        }
        if let overlap = NightlyPaths.overlap(inbox: inbox, archive: archive, quarantine: quarantine, reports: reports, warehouse: warehouse) {
            bad(overlap.key, overlap.value, overlap.hint)
        }
        return problems
    }

    static func describe(_ e: Swift.DecodingError) -> String {
        switch e {
        case let .keyNotFound(key, _): return "the required key '\(key.stringValue)' is missing"
        case let .typeMismatch(_, ctx), let .dataCorrupted(ctx), let .valueNotFound(_, ctx):
            return "'\(ctx.codingPath.map(\.stringValue).joined(separator: "."))': \(ctx.debugDescription)"
        @unknown default: return "\(e)"
        }
    }
}
