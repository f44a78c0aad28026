import Foundation

/// The one recursive walk over a folder, for `fleetkit import`'s paths (FileWalker) and the
/// nightly inbox (InboxWalker), which differ only in how they treat symbolic links.
///
/// Names are read as bytes (`DirectoryListing`): a name that is not UTF-8 comes back as a
/// problem, never dropped. Hidden names and notes (`README*`, `*.md`, `*.reason.txt`) are skipped:
/// they are documentation, not data. Anything that is not a regular file is a problem before any
/// code opens it (reading a FIFO would block forever). Names come in `DirectoryListing` order.
public enum DirectoryWalk {
    public enum Links: Sendable {
        /// Links are followed wherever they lead (the user named the folder); a folder reached
        /// twice (`a/loop -> ..`, two links to one folder) is recognised by device and inode and
        /// not walked again, so a link loop cannot make the walk endless.
        case follow
        /// A link is followed only when it resolves inside the walk's root, to a file: a link to
        /// /etc/shadow or another customer's folder is never opened, and a linked folder is not
        /// walked (it would walk part of the root twice).
        case stayInside
    }

    public enum Problem: Sendable {
        case unreadableFolder(reason: String)
        /// A link whose target is gone (or a name gone since the listing, with `.follow`).
        case brokenLink
        case nameNotUTF8
        case outside(target: String)
        case walkedAlready
        case notRegular(kind: String)
        /// A name that cannot be looked up for another reason than being gone: a path longer
        /// than PATH_MAX (ENAMETOOLONG), a folder without search permission. Said, never skipped.
        case unreachable(reason: String)
    }

    /// A regular file found, or a problem with a name (or a folder that cannot be read).
    public struct Item {
        public var path: [UInt8]
        /// The path below the folder walked.
        public var relative: [UInt8]
        /// Of the file, or of a followed link's target; nil with a problem.
        public var status: stat?
        public var problem: Problem?
        /// The names beside it, for files that travel together (done-markers).
        public var siblings: Set<[UInt8]>
        public var name: [UInt8] { Array(path.split(separator: 0x2F, omittingEmptySubsequences: false).last ?? []) }
    }

    public static func isNote(_ name: String) -> Bool {
        name.hasPrefix("README") || name.hasSuffix(".md") || name.hasSuffix(".reason.txt")
    }

    /// Walks `dir`. `visited` holds the folders already walked (`.follow`); `skip` drops a
    /// name, given the names beside it, before anything is looked up.
    public static func walk(_ dir: [UInt8], relative: [UInt8] = [], root: [UInt8], links: Links, visited: inout Set<DirectoryListing.Identity>,
                            skip: (_ name: [UInt8], _ siblings: Set<[UInt8]>) -> Bool = { _, _ in false }, visit: (Item) -> Void) {
        let names: [[UInt8]]
        switch DirectoryListing.names(dir) {
        case let .success(n): names = n
        case let .failure(e):
            visit(Item(path: dir, relative: relative, status: nil, problem: .unreadableFolder(reason: e.reason), siblings: []))
            return
        }
        let siblings = Set(names)
        for name in names where name.first != 0x2E {
            if let text = DirectoryListing.text(name), isNote(text) { continue }
            if skip(name, siblings) { continue }
            let path = dir + [0x2F] + name
            let rel = relative.isEmpty ? name : relative + [0x2F] + name
            func found(_ st: stat?, _ problem: Problem?) { visit(Item(path: path, relative: rel, status: st, problem: problem, siblings: siblings)) }
            var st: stat
            switch links {
            case .follow:
                guard let followed = DirectoryListing.status(path, follow: true) else {
                    let e = errno
                    found(nil, e == ENOENT ? .brokenLink : .unreachable(reason: String(cString: strerror(e))))
                    continue
                }
                guard DirectoryListing.text(path) != nil else { found(nil, .nameNotUTF8); continue }
                if followed.st_mode & S_IFMT == S_IFDIR {
                    guard visited.insert(DirectoryListing.Identity(followed)).inserted else { found(nil, .walkedAlready); continue }
                    walk(path, relative: rel, root: root, links: links, visited: &visited, skip: skip, visit: visit)
                    continue
                }
                st = followed
            case .stayInside:
                guard let lst = DirectoryListing.status(path, follow: false) else {
                    // Gone since the listing: nothing to say. Anything else (a path over
                    // PATH_MAX was skipped every night, "0 files") is a problem with its reason.
                    let e = errno
                    if e != ENOENT { found(nil, .unreachable(reason: String(cString: strerror(e)))) }
                    continue
                }
                guard DirectoryListing.text(path) != nil else { found(nil, .nameNotUTF8); continue }
                st = lst
                if lst.st_mode & S_IFMT == S_IFLNK {
                    let target = URL(fileURLWithPath: String(decoding: path, as: UTF8.self)).resolvingSymlinksInPath().path
                    guard target.hasPrefix(String(decoding: root, as: UTF8.self) + "/") else { found(nil, .outside(target: target)); continue }
                    guard let followed = DirectoryListing.status(path, follow: true) else { found(nil, .brokenLink); continue }
                    if followed.st_mode & S_IFMT == S_IFDIR { continue }
                    st = followed
                } else if lst.st_mode & S_IFMT == S_IFDIR {
                    walk(path, relative: rel, root: root, links: links, visited: &visited, skip: skip, visit: visit)
                    continue
                }
            }
            if st.st_mode & S_IFMT != S_IFREG { found(st, .notRegular(kind: DirectoryListing.kind(st.st_mode))); continue }
            found(st, nil)
        }
    }
}
