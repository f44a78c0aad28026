import Foundation

/// Runs the built `fleetkit` executable, as a script or cron job would, and captures what it
/// prints and how it exits.
public struct CommandResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum Fleetkit {
    /// The folder of the test bundle, where SwiftPM also puts the `fleetkit` executable.
    public static var productsDirectory: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    public static var executable: URL { productsDirectory.appendingPathComponent("fleetkit") }

    @discardableResult
    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try Tool.run(executable.path, arguments, in: directory, environment: environment)
    }

    /// `fleetkit arguments` not yet started, its output discarded: for tests that start it,
    /// signal or kill it, or run several at once.
    public static func process(_ arguments: [String]) -> Process {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        return p
    }

    /// Starts `fleetkit arguments` with stdout and stderr going to files in `folder`, so a test
    /// can watch what it prints while it runs (`Fleetkit.text(of:)`).
    public static func start(_ arguments: [String], outputIn folder: URL) throws -> (Process, out: URL, err: URL) {
        let out = folder.appendingPathComponent("stdout-\(UUID())"), err = folder.appendingPathComponent("stderr-\(UUID())")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let p = process(arguments)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        return (p, out, err)
    }

    /// What a started command has written to `file` so far. Throws when the file cannot be read
    /// (`start` creates it, so a missing one is a failure, never "printed nothing"); a character
    /// cut in half by a write still in progress reads as U+FFFD.
    public static func text(of file: URL) throws -> String { String(decoding: try Data(contentsOf: file), as: UTF8.self) }

    /// Runs `fleetkit arguments` under `/usr/bin/time` and returns what it did with its peak
    /// resident memory, as the kernel measured it for that child alone (KB). `make deps`
    /// installs Debian's `time`: without it this fails, it never skips.
    public static func peakMemory(_ arguments: [String]) throws -> (result: CommandResult, kilobytes: Int) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw ToolMissing(message: "/usr/bin/time is missing: run `make deps` (Debian package `time`)")
        }
        var r = try Tool.run("/usr/bin/time", ["-f", "fleetkit-peak-rss-kb %M", executable.path] + arguments)
        guard let line = r.stderr.split(separator: "\n").last(where: { $0.hasPrefix("fleetkit-peak-rss-kb ") }),
              let kb = Int(line.dropFirst("fleetkit-peak-rss-kb ".count)) else {
            throw ToolMissing(message: "/usr/bin/time printed no peak RSS: \(r.stderr.suffix(400))")
        }
        r.stderr = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("fleetkit-peak-rss-kb ") }.joined(separator: "\n")
        return (r, kb)
    }
}

/// A program a test needs and cannot use.
public struct ToolMissing: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Runs other programs (python3, /usr/bin/time, mount) the way `Fleetkit.run` runs `fleetkit`.
public enum Tool {
    /// Runs `path` and captures what it prints: stdout through a pipe, stderr through a file,
    /// so a chatty command cannot fill a second pipe and block.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = directory }
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-stderr-\(UUID())")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = errHandle
        try p.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try errHandle.close()
        let errData = try Data(contentsOf: errURL)
        return CommandResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `path` with its output discarded and returns its exit status: for mount, umount and
    /// the like, whose output no test reads.
    @discardableResult
    public static func status(_ path: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}

/// Polls `condition` every `micros` until it holds or `seconds` pass; whether it held (checked
/// once more at the deadline). For tests that wait on another process.
public func waitFor(_ seconds: Double, every micros: UInt32 = 20_000, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(micros)
    }
    return try condition()
}
