import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes report files so a reader (a browser, Excel, a pipeline watching `--out`) never sees
/// half a file: the bytes go to a hidden temporary file in the same folder, which is then
/// renamed over the destination. rename(2) is atomic within one file system, which is why the
/// temporary file lives next to the destination and not in /tmp.
enum AtomicFile {
    enum Error: Swift.Error, CustomStringConvertible {
        case rename(from: String, to: String, errno: Int32)
        case reportMode(String)

        var description: String {
            switch self {
            case let .rename(from, to, code):
                return "cannot move \(from) to \(to): \(String(cString: strerror(code))); check that the output folder is writable"
            case let .reportMode(text):
                return "FLEETKIT_REPORT_MODE is '\(text)', not an octal file mode that lets the owner read and write (such as 0600 or 0640); fix it or unset it"
            }
        }
    }

    /// A hidden sibling of `destination`, unique to this process and call.
    static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(UUID().uuidString.prefix(8)).tmp")
    }

    /// The mode of report files: 0600 (reports name drivers, assets and costs), or the octal
    /// value of `FLEETKIT_REPORT_MODE` (e.g. `0640` to share with a group). Report folders
    /// created here get the matching search bits (0700, 0750). A value that is not such a mode
    /// is an error, not a silent 0600: whoever set it expects others to read the reports.
    static func fileMode() throws -> mode_t {
        guard let text = ProcessInfo.processInfo.environment["FLEETKIT_REPORT_MODE"] else { return 0o600 }
        guard let mode = mode_t(text, radix: 8), mode & ~0o777 == 0, mode & 0o600 == 0o600 else { throw Error.reportMode(text) }
        return mode
    }

    static func directoryMode() throws -> mode_t {
        let file = try fileMode()
        return file | ((file & 0o444) >> 2)
    }

    /// Renames `temporary` over `destination`; removes `temporary` when that fails.
    static func commit(_ temporary: URL, to destination: URL) throws {
        let mode: mode_t
        do { mode = try fileMode() } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        chmod(temporary.path, mode)
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw Error.rename(from: temporary.path, to: destination.path, errno: code)
        }
    }

    /// Writes `text` as UTF-8 to `destination` atomically.
    static func write(_ text: String, to destination: URL) throws {
        let temporary = temporaryURL(for: destination)
        do {
            try Data(text.utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try commit(temporary, to: destination)
    }

    /// Produces a file with `body` (which writes to the temporary path it is given) and renames
    /// it into place; the temporary file is removed when `body` throws.
    static func produce(_ destination: URL, _ body: (URL) throws -> Void) throws {
        let temporary = temporaryURL(for: destination)
        do {
            try body(temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try commit(temporary, to: destination)
    }

    /// Creates the output folder when it does not exist yet.
    static func prepare(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(try directoryMode())])
    }
}
