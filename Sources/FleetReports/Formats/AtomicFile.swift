import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetCore

/// Report files and folders: their mode (`FLEETKIT_REPORT_MODE`), the output folder, and
/// putting each file in place atomically through FleetCore's `AtomicWrite`, the one writer the
/// nightly job uses too. Temporary names are unique per process and call (two report commands
/// may write one folder at once), and report files are not synced to disk one by one: a report
/// lost to a power cut is written again by the next run, and syncing every CSV table would slow
/// the nightly job's dozens of files.
enum AtomicFile {
    enum Error: Swift.Error, CustomStringConvertible {
        case reportMode(String)
        case folder(path: String, reason: String, fix: String)

        var description: String {
            switch self {
            case let .folder(path, reason, fix):
                return "the output folder \(path) cannot be used: \(reason). \(fix)"
            case let .reportMode(text):
                return "FLEETKIT_REPORT_MODE is '\(text)', not an octal file mode that lets the owner read and write (such as 0600 or 0640); fix it or unset it"
            }
        }
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

    /// Writes `text` as UTF-8 to `destination` atomically.
    static func write(_ text: String, to destination: URL) throws {
        try AtomicWrite.write(Data(text.utf8), to: destination, mode: try fileMode(), temporary: .unique, durable: false)
    }

    /// Produces a file with `body` (which writes to the temporary path it is given) and renames
    /// it into place; the temporary file is removed when `body` throws.
    static func produce(_ destination: URL, _ body: (URL) throws -> Void) throws {
        try AtomicWrite.produce(destination, mode: try fileMode(), temporary: .unique, body)
    }

    /// Creates the output folder when it does not exist yet.
    ///
    /// Failures are sentences that say which path is wrong and what to do, never Foundation's
    /// `Error Domain=NSCocoaErrorDomain Code=…` dump: the first existing ancestor of the folder
    /// is found and checked (a file where a folder should be, a folder this user cannot write).
    static func prepare(_ directory: URL) throws {
        let path = directory.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Error.folder(path: path, reason: "it is a file, not a folder", fix: "Pass --out with a folder path, or move the file away.")
            }
            guard access(path, W_OK | X_OK) == 0 else {
                throw Error.folder(path: path, reason: "this user cannot write in it", fix: "Fix its permissions (chmod u+w \(path)) or pass another --out folder.")
            }
            // Temporary files of a report killed outright (SIGKILL) do not pile up.
            do { try AtomicWrite.sweepAbandoned(in: URL(fileURLWithPath: path)) } catch {
                let why: String
                if case let .io(_, reason) = error { why = reason } else { why = error.description }
                throw Error.folder(path: path, reason: "it cannot be listed (\(why))", fix: "Give this user read permission on it (chmod u+r \(path)) or pass another --out folder.")
            }
            return
        }
        let mode = Int(try directoryMode())
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        } catch {
            var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
            while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) { ancestor = ancestor.deletingLastPathComponent() }
            var ancestorIsDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &ancestorIsDirectory)
            if !ancestorIsDirectory.boolValue {
                throw Error.folder(path: path, reason: "\(ancestor.path) is a file, not a folder, so no folder can be made inside it",
                                   fix: "Pass --out with another path, or move \(ancestor.path) away.")
            }
            if access(ancestor.path, W_OK | X_OK) != 0 {
                throw Error.folder(path: path, reason: "it does not exist and this user cannot create it in \(ancestor.path)",
                                   fix: "Create it first with the right owner, or pass --out with a folder you can write to.")
            }
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            throw Error.folder(path: path, reason: "it could not be created (\(code.map { String(cString: strerror(Int32($0))) } ?? "unknown reason"))",
                               fix: "Check the path and the free space, or pass another --out folder.")
        }
    }
}
