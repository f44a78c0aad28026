import Foundation
import FleetImport

/// The files of the inbox, in a stable order, without leaving it: a symbolic link is imported
/// only when it resolves inside the inbox to a regular file, so a link to /etc/shadow, another
/// customer's folder or a FIFO is never opened.
///
/// Names are read as bytes (`DirectoryListing`): one that is not UTF-8 comes back with a problem
/// and its raw path, so the job quarantines it under an escaped name instead of leaving it
/// unseen in the inbox forever.
enum InboxWalker {
    struct Entry {
        var url: URL
        /// The path below the inbox, kept when the file moves to the archive or quarantine.
        var relative: String
        var problem: String?
        /// The path's bytes, when they are not UTF-8 (`url` then holds the escaped text).
        var raw: [UInt8]? = nil
        /// What the walk saw: size, modification time and identity (of the link's target for a
        /// link), compared with the previous run's look and with the descriptor at import.
        var look: Look? = nil
        /// `name.done` or `name.ok` beside the file: the uploader says the file is complete.
        var marker: URL? = nil
        /// A `.done`/`.ok` file whose data file is not beside it: never imported as data.
        var orphanMarker = false
    }

    struct Look: Equatable, Codable {
        var size: Int64
        /// Nanoseconds since 1970.
        var mtime: Int64
        var device: UInt64
        var inode: UInt64

        init(_ st: stat) {
            size = Int64(st.st_size)
            mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }

        var modified: Date { Date(timeIntervalSince1970: Double(mtime) / 1e9) }
    }

    /// The suffixes of done-markers (docs/OPERATIONS.md, "When a file is imported").
    static let markerSuffixes = [".done", ".ok"]

    static func entries(inbox: String) -> [Entry] {
        let root = Array(URL(fileURLWithPath: inbox).standardizedFileURL.resolvingSymlinksInPath().path.utf8)
        var out: [Entry] = []
        walk(root, relative: [], root: root, into: &out)
        return out
    }

    /// DirectoryWalk, never leaving the inbox; a done-marker is not data: it travels with the
    /// file it marks.
    private static func walk(_ dir: [UInt8], relative: [UInt8], root: [UInt8], into out: inout [Entry]) {
        var visited: Set<DirectoryListing.Identity> = []
        DirectoryWalk.walk(dir, relative: relative, root: root, links: .stayInside, visited: &visited, skip: { name, present in
            guard let text = DirectoryListing.text(name) else { return false }
            return markerSuffixes.contains { text.hasSuffix($0) && present.contains(Array(text.utf8.dropLast($0.utf8.count))) }
        }) { item in
            let (path, rel) = (item.path, item.relative)
            switch item.problem {
            case let .unreadableFolder(reason)?: out.append(entry(path, rel, problem: "the folder cannot be read (\(reason)); check its permissions"))
            case .nameNotUTF8?:
                out.append(entry(path, rel, problem: "the file name is not valid UTF-8 (shown with \\xNN for the bytes that are not); "
                                 + "rename it to a UTF-8 name and put it back in the inbox"))
            case let .outside(target)?: out.append(entry(path, rel, problem: "a symbolic link that leads outside the inbox (to \(target)); not followed"))
            case .brokenLink?: out.append(entry(path, rel, problem: "a link to nothing"))
            case .walkedAlready?: out.append(entry(path, rel, problem: "a folder already walked; not walked again"))
            case let .notRegular(kind)?: out.append(entry(path, rel, problem: "\(kind), not a regular file; only regular files are imported"))
            case let .unreachable(reason)?:
                out.append(entry(path, rel, problem: "it cannot be looked up (\(reason)); a path over \(PATH_MAX) bytes: move it to a shorter folder or name"))
            case nil:
                var e = entry(path, rel, problem: nil)
                e.look = item.status.map(Look.init)
                e.orphanMarker = markerSuffixes.contains { e.relative.hasSuffix($0) }
                let name = item.name
                e.marker = markerSuffixes.lazy.map { Array($0.utf8) }.first { item.siblings.contains(name + $0) }
                    .map { URL(fileURLWithPath: String(decoding: path + $0, as: UTF8.self)) }
                out.append(e)
            }
        }
    }

    private static func entry(_ path: [UInt8], _ rel: [UInt8], problem: String?) -> Entry {
        if let text = DirectoryListing.text(path), let relText = DirectoryListing.text(rel) {
            return Entry(url: URL(fileURLWithPath: text), relative: relText, problem: problem)
        }
        return Entry(url: URL(fileURLWithPath: DirectoryListing.escaped(path)), relative: DirectoryListing.escaped(rel), problem: problem, raw: path)
    }
}
