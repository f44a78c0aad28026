import ArgumentParser
import Foundation
import FleetKit
import FleetSample

struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Write a realistic sample fleet in every supported input format.",
        discussion: "The output is deterministic: the same options write byte-identical files.")

    @Option(help: "The folder to write into (created if needed).")
    var out: String
    @Option(help: "Number of road vehicles.")
    var assets: Int = 25
    @Option(help: "Number of machines (heavy equipment).")
    var machines: Int = 8
    @Option(help: "Number of days, from --start.")
    var days: Int = 31
    @Option(help: "The first day, YYYY-MM-DD.")
    var start: String = "2026-10-01"
    @Option(help: "The random seed.")
    var seed: UInt64 = 42
    @Option(help: "Also write one long GPS track of this many points at 1 Hz (scale/UNIT/track-N.gpx), for benchmarks; written in chunks, so memory stays flat.")
    var scalePoints: Int = 0

    func validate() throws {
        guard CivilDate(start) != nil else { throw ValidationError("'\(start)' is not a date; write YYYY-MM-DD.") }
        guard (1...100_000).contains(assets), (0...100_000).contains(machines) else { throw ValidationError("--assets must be 1…100000 and --machines 0…100000.") }
        guard (1...3660).contains(days) else { throw ValidationError("--days must be 1…3660.") }
        guard (0...1_000_000_000).contains(scalePoints) else { throw ValidationError("--scale-points must be 0…1000000000.") }
    }

    func run() throws {
        let fleet = SampleFleet(vehicles: assets, machines: machines, start: CivilDate(start)!, days: days, seed: seed)
        var writer = SampleWriter(fleet: fleet, root: URL(fileURLWithPath: out))
        writer.scalePoints = scalePoints
        do {
            let files = try writer.writeAll()
            for f in files { Console.out("wrote \(out)/\(f)") }
            Console.out("\(files.count) files for \(assets) vehicles and \(machines) machines over \(days) days from \(start) (seed \(seed))")
        } catch { throw fail(error) }
    }
}
