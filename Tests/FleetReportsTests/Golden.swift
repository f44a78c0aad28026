import Foundation
import XCTest

/// Golden files: expected renderer output committed under Tests/FleetReportsTests/Golden/.
///
/// To regenerate after an intended change, run
///
///     FLEETKIT_UPDATE_GOLDEN=1 swift test --filter FleetReportsTests
///
/// and review the diff (`git diff Tests/FleetReportsTests/Golden`) before committing it. With the
/// variable set, tests write what they produced instead of comparing.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static var updating: Bool { ProcessInfo.processInfo.environment["FLEETKIT_UPDATE_GOLDEN"] == "1" }

    static func assertMatches(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = directory.appendingPathComponent(name)
        if updating {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                XCTFail("cannot write golden \(url.path): \(error)", file: file, line: line)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            XCTFail("missing golden \(url.path); run FLEETKIT_UPDATE_GOLDEN=1 swift test --filter FleetReportsTests", file: file, line: line)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        // Split on "\n" only, so a CRLF/LF difference shows up as a trailing "\r".
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let at = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
        let show: (ArraySlice<Substring>.Element?) -> String = { $0.map { String(reflecting: String($0)) } ?? "<end of file>" }
        XCTFail("""
            \(name) differs from its golden at line \(at + 1):
              expected: \(show(at < e.count ? e[at] : nil))
              actual:   \(show(at < a.count ? a[at] : nil))
            If the change is intended, regenerate with FLEETKIT_UPDATE_GOLDEN=1 and review the diff.
            """, file: file, line: line)
    }
}
