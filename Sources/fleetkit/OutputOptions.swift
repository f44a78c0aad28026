import ArgumentParser
import Foundation

/// `--quiet` and `--verbose`, shared by the commands that work for a long time (`import`,
/// `nightly`, `report`), with the manners of the tools people already use: progress goes to stderr and
/// only when stderr is a terminal (a pipe or a log file stays clean), `--verbose` shows it
/// anyway (as plain lines in a log), and `--quiet` shows only errors.
struct OutputOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print only errors: no progress, no per-file lines, no summary (the exit code tells).")
    var quiet = false
    @Flag(name: [.short, .long], help: "Show progress on stderr even when it is not a terminal (one line every few seconds).")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
    }

    /// How progress is shown on stderr.
    var progress: ProgressMeter.Mode {
        if quiet { return .off }
        if isatty(STDERR_FILENO) == 1 { return .terminal }
        return verbose ? .lines : .off
    }
}
