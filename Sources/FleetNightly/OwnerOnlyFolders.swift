import Foundation
import FleetCore

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

    /// Creates `url` like `create`, then refuses it when any folder between `root` (a job folder,
    /// canonical in the config) and it is a symbolic link or not a folder: a link planted in the
    /// quarantine or archive would send customer files, and their reason files, outside it.
    static func create(_ url: URL, under root: String) throws {
        try create(url)
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(root + "/") else { return }
        var prefix = root
        for part in path.dropFirst(root.count + 1).split(separator: "/") {
            prefix += "/" + part
            var st = stat()
            guard lstat(prefix, &st) == 0 else { throw FleetError.io(path: prefix, reason: "cannot read the folder: \(String(cString: strerror(errno)))") }
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw FleetError.io(path: prefix, reason: (st.st_mode & S_IFMT) == S_IFLNK
                    ? "it is a symbolic link inside the job's folders, which FleetKit never follows; remove it"
                    : "it is not a folder; remove it")
            }
        }
    }
}
