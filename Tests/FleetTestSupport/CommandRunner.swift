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
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = directory }
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // stderr goes to a file, so a chatty command cannot fill a second pipe and block.
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
}
