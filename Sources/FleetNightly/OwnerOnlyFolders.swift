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
}
