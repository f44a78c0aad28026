import Foundation
import GRDB
import FleetCore

/// Expands the paths given to `fleetkit import` into files, in a stable order.
enum FileWalker {
    /// Files under `paths`, sorted; a path that cannot be read comes back with its problem so the
    /// run can report it and go on. Hidden files and `README*`/`*.md` notes are skipped: they are
    /// documentation, not data.
    static func files(under paths: [String], excluding warehouse: String? = nil) -> [(URL, String?)] {
        let skip = warehouse.map { w in Set(["", "-wal", "-shm", "-journal", ".lock"].map { URL(fileURLWithPath: w + $0).standardizedFileURL.path }) } ?? []
        return expand(paths).filter { !skip.contains($0.0.standardizedFileURL.path) }
    }

    private static func expand(_ paths: [String]) -> [(URL, String?)] {
        var out: [(URL, String?)] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                out.append((URL(fileURLWithPath: path), "\(path): no such file or folder"))
                continue
            }
            if !isDir.boolValue { out.append((URL(fileURLWithPath: path), regularFileProblem(URL(fileURLWithPath: path)))); continue }
            out += walk(URL(fileURLWithPath: path, isDirectory: true))
        }
        return out
    }

    private static func walk(_ dir: URL) -> [(URL, String?)] {
        let fm = FileManager.default
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: dir.path).sorted() } catch {
            return [(dir, "\(dir.path): the folder cannot be read (\(error.localizedDescription)); check its permissions")]
        }
        var out: [(URL, String?)] = []
        for name in names where !name.hasPrefix(".") && !isNote(name) {
            let url = dir.appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else {
                out.append((url, "\(url.path): a link to nothing (the file it points at is gone)"))
                continue
            }
            if isDir.boolValue { out += walk(url); continue }
            out.append((url, regularFileProblem(url)))
        }
        return out
    }

    /// Pipes, sockets and devices are refused before anything opens them: reading a FIFO would
    /// block the nightly job forever.
    static func regularFileProblem(_ url: URL) -> String? {
        guard let type = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.type] as? FileAttributeType else {
            return "\(url.path): cannot read the file's attributes; check its permissions"
        }
        if type == .typeRegular { return nil }
        return "\(url.path): not a regular file (\(type.rawValue)); only files are imported"
    }

    static func isNote(_ name: String) -> Bool {
        name.hasPrefix("README") || name.hasSuffix(".md") || name.hasSuffix(".reason.txt")
    }

    static func head(of url: URL) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading; check that it exists and its permissions allow reading")
        }
        defer { try? handle.close() }
        do { return try handle.read(upToCount: InputFile.headLength) ?? Data() } catch {
            throw FleetError.io(path: url.path, reason: "read failed: \(error.localizedDescription)")
        }
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
