import Foundation

/// The files of the inbox, in a stable order, without leaving it: a symbolic link is imported
/// only when it resolves inside the inbox, so a link to /etc/shadow or another customer's
/// folder is never read.
enum InboxWalker {
    struct Entry {
        var url: URL
        /// The path below the inbox, kept when the file moves to the archive or quarantine.
        var relative: String
        var problem: String?
        var settling: Bool
    }

    static func entries(inbox: String, settleSeconds: Double, now: Date) -> [Entry] {
        let root = URL(fileURLWithPath: inbox).standardizedFileURL.resolvingSymlinksInPath()
        var out: [Entry] = []
        walk(root, relative: "", root: root, settle: settleSeconds, now: now, into: &out)
        return out
    }

    private static func walk(_ dir: URL, relative: String, root: URL, settle: Double, now: Date, into out: inout [Entry]) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: dir.path).sorted() else {
            out.append(Entry(url: dir, relative: relative, problem: "the folder cannot be read; check its permissions", settling: false))
            return
        }
        for name in names where !name.hasPrefix(".") && !name.hasPrefix("README") && !name.hasSuffix(".md") && !name.hasSuffix(".reason.txt") {
            let url = dir.appendingPathComponent(name)
            let rel = relative.isEmpty ? name : relative + "/" + name
            guard let attrs = try? fm.attributesOfItem(atPath: url.path), let type = attrs[.type] as? FileAttributeType else { continue }
            if type == .typeSymbolicLink {
                let target = url.resolvingSymlinksInPath()
                guard target.path.hasPrefix(root.path + "/") else {
                    out.append(Entry(url: url, relative: rel, problem: "a symbolic link that leads outside the inbox (to \(target.path)); not followed", settling: false))
                    continue
                }
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: target.path, isDirectory: &isDir) else {
                    out.append(Entry(url: url, relative: rel, problem: "a link to nothing", settling: false))
                    continue
                }
                if isDir.boolValue { continue }   // linked folders would walk parts of the inbox twice
                out.append(entry(url, rel, attrs: (try? fm.attributesOfItem(atPath: target.path)) ?? attrs, settle: settle, now: now))
            } else if type == .typeDirectory {
                walk(url, relative: rel, root: root, settle: settle, now: now, into: &out)
            } else if type == .typeRegular {
                out.append(entry(url, rel, attrs: attrs, settle: settle, now: now))
            } else {
                out.append(Entry(url: url, relative: rel, problem: "not a regular file (\(type.rawValue)); only files are imported", settling: false))
            }
        }
    }

    private static func entry(_ url: URL, _ rel: String, attrs: [FileAttributeKey: Any], settle: Double, now: Date) -> Entry {
        let modified = attrs[.modificationDate] as? Date ?? .distantPast
        return Entry(url: url, relative: rel, problem: nil, settling: now.timeIntervalSince(modified) < settle)
    }
}
