import GRDB

extension WarehouseMigrator {
    /// The exit code each run ended with (`import`: its summary's; `nightly`: after quarantine,
    /// reports and verify), so `fleetkit status` shows what cron saw. NULL for a run still going,
    /// one whose process died (status `interrupted`) or that stopped on an error (exit 2), and
    /// runs recorded before this migration.
    static let v13RunExitCode = """
    ALTER TABLE import_run ADD COLUMN exit_code INTEGER;
    """
}
