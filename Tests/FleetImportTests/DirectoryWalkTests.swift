import XCTest
import Foundation
@testable import FleetImport

/// One walk, two link policies: `import` follows links anywhere (each folder once), the nightly
/// inbox never leaves its root and never walks a linked folder. Both skip hidden names and notes
/// and name every problem.
final class DirectoryWalkTests: XCTestCase {
    var base: URL!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID())")
        let fm = FileManager.default
        for folder in ["root/sub", "elsewhere"] { try fm.createDirectory(at: base.appendingPathComponent(folder), withIntermediateDirectories: true) }
        for file in ["root/a.csv", "root/sub/b.csv", "root/README.txt", "root/notes.md", "root/.hidden", "elsewhere/secret.csv"] {
            try Data("x".utf8).write(to: base.appendingPathComponent(file))
        }
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/out.csv").path, withDestinationPath: base.appendingPathComponent("elsewhere/secret.csv").path)
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/gone.csv").path, withDestinationPath: base.appendingPathComponent("root/nothing.csv").path)
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/sub/loop").path, withDestinationPath: base.appendingPathComponent("root").path)
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/in.csv").path, withDestinationPath: base.appendingPathComponent("root/a.csv").path)
    }

    /// "relative: ok" or "relative: problem", sorted.
    private func walk(_ links: DirectoryWalk.Links) -> [String] {
        let root = Array(base.appendingPathComponent("root").resolvingSymlinksInPath().path.utf8)
        var visited: Set<DirectoryListing.Identity> = [DirectoryListing.Identity(DirectoryListing.status(root, follow: true)!)]
        var out: [String] = []
        DirectoryWalk.walk(root, root: root, links: links, visited: &visited) { item in
            let what: String
            switch item.problem {
            case nil: what = item.status.map { $0.st_mode & S_IFMT == S_IFREG ? "file" : "?" } ?? "no status"
            case .brokenLink?: what = "broken link"
            case .outside?: what = "outside"
            case .walkedAlready?: what = "walked already"
            case let other?: what = "\(other)"
            }
            out.append(String(decoding: item.relative, as: UTF8.self) + ": " + what)
        }
        return out.sorted()
    }

    func testFollowTakesLinksAnywhereAndEachFolderOnce() {
        XCTAssertEqual(walk(.follow), ["a.csv: file", "gone.csv: broken link", "in.csv: file", "out.csv: file", "sub/b.csv: file", "sub/loop: walked already"])
    }

    func testStayInsideNeverLeavesTheRootNorWalksALinkedFolder() {
        // A link to the root itself is not inside it either: reported, never followed.
        XCTAssertEqual(walk(.stayInside), ["a.csv: file", "gone.csv: broken link", "in.csv: file", "out.csv: outside", "sub/b.csv: file", "sub/loop: outside"])
    }

    /// Issue 35 item 6: a file whose path is longer than PATH_MAX was skipped every night with
    /// "0 files" and exit 0 (its lstat failed and the walk went on in silence). It is a problem
    /// with its reason now, under both link policies.
    func testAFileBeyondPATHMAXIsAProblemNeverSkipped() throws {
        let root = base.appendingPathComponent("long")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Folders of 200-byte names, made relative to an open descriptor (a path that long
        // cannot be passed whole), until the folder's own path is just under PATH_MAX.
        var fd = open(root.path, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let folder = String(repeating: "f", count: 200)
        var length = root.path.utf8.count
        while length + 201 < Int(PATH_MAX) - 1 {
            XCTAssertEqual(mkdirat(fd, folder, 0o700), 0)
            let next = openat(fd, folder, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
            length += 201
        }
        let file = openat(fd, String(repeating: "d", count: 200) + ".csv", O_CREAT | O_WRONLY, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        close(file)
        close(fd)
        for links in [DirectoryWalk.Links.stayInside, .follow] {
            var visited: Set<DirectoryListing.Identity> = []
            var problems: [String] = []
            DirectoryWalk.walk(Array(root.path.utf8), root: Array(root.path.utf8), links: links, visited: &visited) { item in
                switch item.problem {
                case let .unreachable(reason)?: problems.append(reason)
                case nil: problems.append("ok \(item.path.count)")
                case let other?: problems.append("\(other)")
                }
            }
            XCTAssertEqual(problems, ["File name too long"], "\(links)")
        }
    }

}
