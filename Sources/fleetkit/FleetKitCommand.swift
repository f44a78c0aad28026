import ArgumentParser
import Foundation
import FleetKit

@main
struct FleetKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleetkit",
        abstract: "Import fleet data into one SQLite warehouse and report on it.",
        discussion: """
            Exit codes: 0 success; 1 finished, but rows were rejected, files failed or a report is partial \
            (incomplete figures; --allow-partial accepts them); \
            2 could not run (configuration, warehouse, lock); 64 usage error; \
            130/143 interrupted by Ctrl-C (SIGINT)/SIGTERM (import, nightly: committed files are kept; run again to resume).
            """,
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(name: "Warehouse", subcommands: [InitCommand.self, StatusCommand.self, VerifyCommand.self, CloseCommand.self, ForgetCommand.self, WarehouseCommand.self]),
            CommandGroup(name: "Import", subcommands: [ImportCommand.self, NightlyCommand.self, ImportOneCommand.self, NightlyReportsCommand.self, FormatsCommand.self, ProfileCommand.self, RejectsCommand.self, ReviewCommand.self]),
            CommandGroup(name: "Report", subcommands: [ReportCommand.self]),
            CommandGroup(name: "Sample data", subcommands: [SampleCommand.self]),
        ]
    )

    static func main() {
        // A file-size limit (`ulimit -f`, systemd's LimitFSIZE=) sends SIGXFSZ, which ends the
        // process without a word. Ignored, the write fails with EFBIG instead: SQLite rolls the
        // file back and the error is reported like a full disk (Warehouse.explain), and the
        // nightly job never mistakes it for an importer crash. Children inherit the setting.
        signal(SIGXFSZ, SIG_IGN)
        ProcessEnvironment.ensureOMPThreadLimit()
        main(nil)
    }
}

/// Exit codes scripts rely on (docs/OPERATIONS.md, "Exit codes (every command)").
enum Exit {
    static let rowsRejected = ExitCode(1)
    static let couldNotRun = ExitCode(2)
}

/// Prints an error the way every command does, and returns the exit code for it.
func fail(_ error: Error) -> ExitCode {
    Console.err("error: \(error)")
    if case FleetError.invalidArgument = error { return .validationFailure }
    // A mapping profile with a mistake is the user's input, like an option's value.
    if error is ProfileError { return .validationFailure }
    return Exit.couldNotRun
}

