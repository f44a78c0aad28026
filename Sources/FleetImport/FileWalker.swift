import Foundation
import GRDB
import FleetCore

/// Expands the paths given to `fleetkit import` into files, in a stable order.
enum FileWalker {
    /// Files under `paths`, sorted; a path that cannot be read comes back with its problem so the
    /// run can report it and go on. Hidden files and `README*`/`*.md` notes are skipped: they are
    /// documentation, not data.
    static func files(under paths: [String], excluding warehouse: String? = nil) -> [(URL, String?)] {
        guard let warehouse else { return expand(paths) }
        let w = URL(fileURLWithPath: warehouse).standardizedFileURL.path
        let skip = Set(["", "-wal", "-shm", "-journal", ".lock"].map { w + $0 })
        // Each run's RunLock file too (`<warehouse>.run-<id>.lock`): the run that walks the folder
        // holds one there itself, and importing it would fail the run on its own lock.
        return expand(paths).filter { entry in
            let p = entry.0.standardizedFileURL.path
            return !skip.contains(p) && !(p.hasPrefix(w + ".run-") && p.hasSuffix(".lock"))
        }
    }

    private static func expand(_ paths: [String]) -> [(URL, String?)] {
        var out: [(URL, String?)] = []
        var visited: Set<DirectoryListing.Identity> = []
        for path in paths {
            let raw = Array(path.utf8)
            guard let st = DirectoryListing.status(raw, follow: true) else {
                let problem = DirectoryListing.status(raw, follow: false) != nil ? "a link to nothing (the file it points at is gone)" : "no such file or folder"
                out.append((URL(fileURLWithPath: path), "\(path): \(problem)"))
                continue
            }
            if st.st_mode & S_IFMT != S_IFDIR { out.append((URL(fileURLWithPath: path), regularFileProblem(path, st))); continue }
            visited.insert(DirectoryListing.Identity(st))
            out += walk(raw, visited: &visited)
        }
        return out
    }

    /// Walks on raw names (DirectoryWalk, following links wherever they lead, each folder once):
    /// every problem comes back with the path it is about, so the run reports it and goes on.
    private static func walk(_ dir: [UInt8], visited: inout Set<DirectoryListing.Identity>) -> [(URL, String?)] {
        var out: [(URL, String?)] = []
        DirectoryWalk.walk(dir, root: dir, links: .follow, visited: &visited) { item in
            let display = DirectoryListing.escaped(item.path)
            let text = DirectoryListing.text(item.path) ?? display
            switch item.problem {
            case nil: out.append((URL(fileURLWithPath: text), nil))
            case let .unreadableFolder(reason)?:
                out.append((URL(fileURLWithPath: display), "\(display): the folder cannot be read (\(reason)); check its permissions"))
            case .brokenLink?: out.append((URL(fileURLWithPath: display), "\(display): a link to nothing (the file it points at is gone)"))
            case .nameNotUTF8?:
                out.append((URL(fileURLWithPath: display), "\(display): the name is not valid UTF-8 (bytes that are not are shown as \\xNN); "
                            + "rename it to a UTF-8 name and import it again"))
            case .walkedAlready?:
                out.append((URL(fileURLWithPath: text), "\(text): leads to a folder already walked (a symbolic link loop or a second link to it); not walked again"))
            case let .notRegular(kind)?: out.append((URL(fileURLWithPath: text), "\(text): \(kind), not a regular file; only regular files are imported"))
            case let .outside(target)?: out.append((URL(fileURLWithPath: text), "\(text): leads outside the folder (to \(target))"))
            case let .unreachable(reason)?:
                out.append((URL(fileURLWithPath: display), "\(display): cannot be looked up (\(reason)); a path over \(PATH_MAX) bytes must be moved to a shorter one"))
            }
        }
        return out
    }

    /// Pipes, sockets and devices are refused before anything opens them: reading a FIFO would
    /// block the nightly job forever. (`ImportSession` checks again on the opened descriptor.)
    static func regularFileProblem(_ path: String, _ st: stat) -> String? {
        if st.st_mode & S_IFMT == S_IFREG { return nil }
        return "\(path): \(DirectoryListing.kind(st.st_mode)), not a regular file; only regular files are imported"
    }

    /// The sniffing head, read through `OpenedFile` (non-blocking open, regular files only).
    static func head(of url: URL) throws -> Data {
        try OpenedFile(path: url.path).head()
    }

    /// The unit a folder names: `…/T-12/trip.gpx` is attributed to T-12 when T-12 is a known
    /// unit number or VIN. Unknown folder names attribute nothing (a folder called `gpx` is not
    /// a unit).
    static func folderUnit(of url: URL, in db: Database) throws -> AssetRef? {
        let folder = url.deletingLastPathComponent().lastPathComponent
        guard !folder.isEmpty else { return nil }
        if try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE unit_number = ?", arguments: [folder]) != nil {
            return AssetRef(unitNumber: folder)
        }
        let vin = VIN.normalise(folder)
        if VIN.isValid(vin), try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE vin = ?", arguments: [vin]) != nil {
            return AssetRef(vin: vin)
        }
        return nil
    }
}
