import Foundation
import FleetCore

/// Write to a temporary file beside the target, then rename: readers never see half a file.
///
/// The file is 0600 whatever the umask (`nightly-last-run.json` and `*.reason.txt` name
/// customer files), created with `O_EXCL | O_NOFOLLOW` so a planted link is never written
/// through. The temporary name is fixed per target (`.<name>.tmp`), not per pid: one left by a
/// killed run is removed and reused by the next write instead of piling up.
enum AtomicWrite {
    static func write(_ data: Data, to url: URL) throws {
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp").path
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FleetError.io(path: url.path, reason: "cannot create \(tmp): \(String(cString: strerror(errno)))") }
        var failure: String?
        if fchmod(fd, 0o600) != 0 { failure = String(cString: strerror(errno)) }
        data.withUnsafeBytes { raw in
            var done = 0
            while failure == nil, done < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 { if errno != EINTR { failure = String(cString: strerror(errno)) } } else { done += n }
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(tmp, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(tmp)
            throw FleetError.io(path: url.path, reason: "cannot write: \(failure)")
        }
    }
}

/// Folders the nightly job creates (archive days, quarantine subfolders) are 0700 whatever the
/// umask, like the archive root: they hold customer files.
enum OwnerOnlyFolders {
    static func create(_ url: URL) throws {
        var missing: [URL] = []
        var cursor = url.standardizedFileURL
        var isDir: ObjCBool = false
        while !FileManager.default.fileExists(atPath: cursor.path, isDirectory: &isDir), cursor.path != "/" {
            missing.append(cursor)
            cursor = cursor.deletingLastPathComponent()
        }
        for folder in missing.reversed() {
            if mkdir(folder.path, 0o700) != 0, errno != EEXIST {
                throw FleetError.io(path: folder.path, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
            }
            chmod(folder.path, 0o700)
        }
    }
}
