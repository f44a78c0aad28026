import Foundation
#if canImport(Glibc)
import Glibc
#endif
import FleetCore

/// Prints an HTML file to PDF with headless Chromium (Debian package `chromium`), the engine the
/// report pages are already checked with: the page's own `@page` rules give the paper, margins,
/// running header and footer and "page n of N", so the PDF is what the HTML says.
///
/// WHY an external engine: a PDF writer of our own would be a second layout engine to get
/// right; Chromium prints tables with repeated headers and breaks rows cleanly.
public struct PDFPrinter: Sendable {
    /// The Debian package that provides the engine, named in the error when it is missing.
    public static let package = "chromium"
    /// Where the engine is looked for, in order, after `$FLEETKIT_CHROMIUM`.
    public static let candidates = ["chromium", "chromium-browser", "google-chrome"]

    public var executable: String
    /// Seconds one print may take before it is stopped.
    public var timeout: Int = 180

    public init(executable: String) {
        self.executable = executable
    }

    /// The engine found on `PATH` (or `$FLEETKIT_CHROMIUM`). - throws: `FleetError.io` naming the
    /// package to install when there is none (exit 2: the command cannot run here).
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PDFPrinter {
        if let given = environment["FLEETKIT_CHROMIUM"], !given.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw FleetError.invalidArgument(name: "FLEETKIT_CHROMIUM", value: given, hint: "it is not an executable file; point it at headless Chromium or unset it")
            }
            return PDFPrinter(executable: given)
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in candidates {
            for folder in path where !folder.isEmpty {
                let file = folder + "/" + name
                if FileManager.default.isExecutableFile(atPath: file) { return PDFPrinter(executable: file) }
            }
        }
        throw FleetError.io(path: package, reason: "headless Chromium prints the evidence pack and none is on PATH (looked for \(candidates.joined(separator: ", "))); "
                            + "install the Debian package `\(package)` (`sudo apt-get install \(package)`, or `make deps`), or set FLEETKIT_CHROMIUM to its path")
    }

    /// Prints `html` to `pdf` (replaced atomically: a failed print leaves no partial file).
    public func print(_ html: URL, to pdf: URL) throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        let partial = pdf.deletingLastPathComponent().appendingPathComponent("." + pdf.lastPathComponent + ".partial")
        try? FileManager.default.removeItem(at: partial)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-pdf-header-footer",
                             "--user-data-dir=\(profile.path)", "--print-to-pdf=\(partial.path)", html.absoluteString]
        // Chromium's stderr goes to a file in the profile folder: a pipe nobody reads while it
        // runs could fill and stop it, and the deadline below must be able to end a hung print.
        let log = profile.appendingPathComponent("stderr.txt")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(TimeInterval(timeout))
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        process.waitUntilExit()
        let size = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? nil
        guard process.terminationStatus == 0, let size, size > 0 else {
            try? FileManager.default.removeItem(at: partial)
            // Its log is the only account of why; one that cannot be read is said so, with the
            // reason, never an empty message.
            let text: String
            switch Self.tail(of: log.path, bytes: 800) {
            case let .success(data): text = String(decoding: data, as: UTF8.self)
            case let .failure(reason): text = "its log \(log.path) cannot be read (\(reason.text))"
            }
            throw FleetError.io(path: pdf.path, reason: "\(executable) did not print \(html.lastPathComponent) (exit \(process.terminationStatus)): \(text)")
        }
        // rename(2) replaces an earlier pack in one step: a reader sees the old file or the new.
        guard rename(partial.path, pdf.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: partial)
            throw FleetError.io(path: pdf.path, reason: "cannot put the printed pack in place: \(reason)")
        }
    }

    /// The system's reason a file could not be read.
    struct ReadFailure: Error { var text: String }

    /// The last `bytes` of a file, or why it cannot be read.
    static func tail(of path: String, bytes: Int) -> Result<Data, ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(ReadFailure(text: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var all = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(text: String(cString: strerror(errno))))
            }
            if n == 0 { return .success(all.suffix(bytes)) }
            all.append(contentsOf: buffer[0..<n])
            if all.count > 4 * bytes { all = all.suffix(bytes) }
        }
    }
}
