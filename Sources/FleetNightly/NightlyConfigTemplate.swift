import Foundation
import FleetCore
import FleetReports

/// The annotated starter `fleetkit.yml` that `fleetkit nightly --init-config PATH` writes.
///
/// WHY generated and not a copied file: the report and format lists come from `ReportRegistry`
/// and `ReportFormats`, so a new report appears in the template (and is refreshed) without
/// editing it. Its folders are relative to the config file (`NightlyConfig.load` resolves them
/// there), so the template validates wherever it is written once its inbox folder exists, which
/// `write` creates.
public enum NightlyConfigTemplate {
    /// The template text: every key, each with its default and a one-line comment.
    public static var text: String {
        """
        # FleetKit nightly job configuration (docs/OPERATIONS.md, "Configuration").
        # Relative paths are relative to this file's folder. Unknown keys, report names and
        # format names are errors, so a typo cannot silently change what the job does.
        warehouse: fleet.sqlite          # the SQLite warehouse; created and migrated if missing (mode 0600)
        inbox: inbox                     # scanned recursively for new files
        archive: archive                 # imported and unchanged files, under YYYY/MM/DD/
        quarantine: quarantine           # files that failed, each with NAME.reason.txt
        reports: reports                 # refreshed reports, index.html, nightly-last-run.json
        settle_seconds: 60               # skip files modified more recently than this
        require_done_marker: false       # true: import only files with NAME.done or NAME.ok beside them
        timezone: UTC                    # fleet time zone (IANA name, e.g. America/Chicago): daily buckets are its local days
        currency: USD                    # base currency, ISO 4217
        units: metric                    # metric or us, for reports
        dvir_policy: every_day           # law, passenger or every_day
        reports_to_refresh: [\(NightlyConfig.reportNames.joined(separator: ", "))]
        periods: [month_to_date, previous_month]   # also quarter_to_date, previous_quarter, or a fixed YYYY-MM
        formats: [\(NightlyConfig.formatNames.joined(separator: ", "))]
        # report_file_mode: "0640"       # report files' mode (default 0600, or $FLEETKIT_REPORT_MODE); 0640 shares them with the group
        report_mode: partial             # partial: incomplete figures are marked in the report; strict: they also make the exit code 1
        # close_after_days: 5            # close last month 5 days after it ends (never months without data, nor the history before the first close); later files that change it are quarantined as restatements
        attribution: { by_folder: true } # inbox/<kind>/<UNIT>/file attributes a GPX/OBD/receipt file to UNIT
        # trips:                         # trip and stop rules (docs/METRICS.md); every key optional
        #   start_distance_m: 200
        #   stop_radius_m: 200
        #   stop_seconds: 180
        #   gap_seconds: 3600

        """
    }

    /// Writes the template to `path` (mode 0600) and creates the inbox folder beside it (0700).
    /// An existing file is never overwritten: it may be the production config.
    public static func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: url.path) {
            throw FleetError.invalidArgument(name: "--init-config", value: path,
                                             hint: "the file already exists and is not overwritten; remove it or choose another path")
        }
        let folder = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir), isDir.boolValue else {
            throw FleetError.invalidArgument(name: "--init-config", value: path, hint: "the folder \(folder.path) does not exist; create it first")
        }
        try AtomicWrite.write(Data(text.utf8), to: url, mode: 0o600, temporary: .unique, durable: true)
        try OwnerOnlyFolders.create(folder.appendingPathComponent("inbox"))
    }
}
