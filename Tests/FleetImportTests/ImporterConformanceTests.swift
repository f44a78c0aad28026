import XCTest
import Foundation
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetImport
import FleetSample

/// The rules every importer keeps (issue 20, "A conformance suite"), run for every format of
/// `ImporterRegistry.all` from one table (ImporterConformanceTable.swift): a format without an
/// entry fails the suite by name. Each format: detected from its bytes, not its name; a
/// re-import is a no-op; any import order gives the same warehouse; every hostile class is
/// refused with a reason, nothing of a refused file kept; memory does not grow with the input.
final class ImporterConformanceTests: XCTestCase {
    typealias Table = ConformanceTable

    func entry(_ format: String) -> ConformanceEntry? { Table.entries.first { $0.format == format } }

    /// Every registered format has an entry, and every entry is a registered format.
    func testEveryRegisteredFormatHasConformanceFixtures() {
        for importer in ImporterRegistry.all where entry(importer.format) == nil {
            XCTFail("format '\(importer.format)' has no conformance entry: add its real files, hostile classes and large input to ConformanceTable.entries")
        }
        for e in Table.entries {
            XCTAssertNotNil(ImporterRegistry.named(e.format), "conformance entry '\(e.format)' names no registered format")
            XCTAssertFalse(e.good.isEmpty, e.format)
            for url in e.good { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(e.format): \(url.path) is missing") }
        }
        XCTAssertEqual(Set(Table.entries.map(\.format)).count, Table.entries.count, "one entry per format")
    }

    /// The bytes decide: each real file under a neutral name (`input.dat`, no extension) and
    /// under another format's extension is still detected as its format. Where the name carries
    /// what the bytes cannot, the entry says why, and the file is detected under its own name.
    func testDetectionIsFromContentNotTheName() throws {
        for e in Table.entries {
            for url in e.good {
                let head = try Self.head(url)
                let own = ImporterRegistry.detect(head, filename: url.lastPathComponent)?.format
                XCTAssertEqual(own, e.format, "\(url.lastPathComponent) under its own name")
                guard case .content = e.detection else {
                    // The entry says the name is needed: then it must be, or the entry is wrong.
                    XCTAssertNotEqual(ImporterRegistry.detect(head, filename: "input.dat")?.format, e.format,
                                      "\(e.format) is detected from content: its entry should say .content")
                    continue
                }
                let other = url.pathExtension.lowercased() == "csv" ? "input.gpx" : "input.csv"
                for name in ["input.dat", "input", other] {
                    XCTAssertEqual(ImporterRegistry.detect(head, filename: name)?.format, e.format, "\(e.format): \(url.lastPathComponent) named \(name)")
                }
            }
        }
    }

    /// Importing the same bytes again, under the same or another name, changes nothing: 0
    /// loaded, and every table's canonical dump is the same.
    func testReimportIsANoOp() throws {
        for e in Table.entries {
            let t = try Self.warehouse()
            for url in e.good {
                let empty = try t.canonicalDump()
                let first = try t.importFile(url, options: ImportOptions(asset: e.asset))
                XCTAssertEqual(first.status, .imported, "\(e.format): \(url.lastPathComponent): \(first.error ?? "")")
                // Rows loaded, or assets created from a vendor's list (`auto_created`, not counted as loaded).
                XCTAssertNotEqual(try t.canonicalDump(), empty, "\(e.format): \(url.lastPathComponent) adds to the warehouse")
            }
            let before = try t.canonicalDump()
            for url in e.good {
                let copy = try t.write(try Data(contentsOf: url), to: "again/\(url.lastPathComponent)")
                for path in [url, copy] {
                    let again = try t.importFile(path, options: ImportOptions(asset: e.asset))
                    XCTAssertEqual(again.status, .unchanged, "\(e.format): \(path.path)")
                    XCTAssertEqual([again.loaded, again.updated, again.rejected], [0, 0, 0], "\(e.format): \(path.path)")
                }
            }
            assertSame(before, try t.canonicalDump(), "\(e.format): after importing its files again")
        }
    }

    /// Every format's files together, in seeded random orders and reversed, give the same
    /// warehouse (the base assets that `--asset` names come first, as `import --asset` expects).
    func testAnyImportOrderGivesTheSameWarehouse() throws {
        let inputs = Table.entries.flatMap { e in e.good.map { (url: $0, asset: e.asset) } }
        func build(_ order: [(url: URL, asset: String?)]) throws -> [String] {
            let t = try Self.warehouse()
            for input in order {
                let o = try t.importFile(input.url, options: ImportOptions(asset: input.asset))
                XCTAssertEqual(o.status, .imported, "\(input.url.lastPathComponent): \(o.error ?? "")")
            }
            return try t.canonicalDump()
        }
        let expected = try build(inputs)
        XCTAssertGreaterThan(expected.count, 100)
        assertSame(expected, try build(inputs.reversed()), "forwards against reversed")
        for seed in [UInt64(7), 8] {
            var rng = SeededRandom(seed: seed)
            let order = inputs.shuffled(using: &rng)
            assertSame(expected, try build(order), "seed \(seed): " + order.map(\.url.lastPathComponent).joined(separator: ", "))
        }
    }

    /// Every hostile class, made from the format's first real file and imported as that format,
    /// is refused with a reason: the whole file (an error naming it, nothing of it kept) or the
    /// rows concerned (rejects with reason, location and raw text).
    func testEveryHostileClassIsRefusedWithAReason() throws {
        var seen: [String] = [], cases = 0
        for e in Table.entries {
            let t = try Self.warehouse()
            let good = try Data(contentsOf: e.good[0])
            var line: [String] = []
            for kind in HostileClass.generic + e.hostile {
                guard let bytes = Hostile.make(kind, from: good, name: e.good[0].lastPathComponent) else { continue }
                let url = try t.write(bytes, to: "\(kind.rawValue)/\(e.good[0].lastPathComponent)")
                let before = try t.canonicalDump()
                let o = try t.importFile(url, options: ImportOptions(format: e.format, asset: e.asset))
                try assertRefused(o, kind: kind, format: e.format, in: t, before: before)
                let reasons = try t.rows("SELECT DISTINCT reason FROM reject WHERE source_file_id = ?", [o.sourceFileID]).map { $0[0] as String }
                cases += 1
                line.append("\(kind.rawValue) " + (o.status == .failed ? "file refused" : reasons.joined(separator: "+")))
            }
            seen.append("\(e.format): " + line.joined(separator: ", "))
        }
        // Every format meets every generic class, but a photo's text classes (it has none).
        let expected = Table.entries.reduce(0) { $0 + HostileClass.generic.count + $1.hostile.count } - 2
        XCTAssertEqual(cases, expected, "cases run")
        print("hostile classes per format:\n" + seen.joined(separator: "\n"))
    }

    func assertRefused(_ o: FileOutcome, kind: HostileClass, format: String, in t: TestWarehouse, before: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let what = "\(format), \(kind.rawValue)"
        switch o.status {
        case .failed:
            let error = o.error ?? ""
            XCTAssertTrue(error.contains(URL(fileURLWithPath: o.path).lastPathComponent), "\(what): the error names the file: \(error)", file: file, line: line)
            XCTAssertGreaterThan(error.count, URL(fileURLWithPath: o.path).path.count + 10, "\(what): the error says why: \(error)", file: file, line: line)
            assertSame(before, try t.canonicalDump(), "\(what): nothing of a refused file is kept", file: file, line: line)
        case .imported:
            XCTAssertGreaterThan(o.rejected, 0, "\(what): imported with \(o.loaded) loaded and nothing refused", file: file, line: line)
            let rejects = try t.rows("SELECT location, reason, raw FROM reject WHERE source_file_id = ?", [o.sourceFileID])
            XCTAssertEqual(rejects.count, o.rejected, what, file: file, line: line)
            for r in rejects {
                XCTAssertFalse((r[0] as String).isEmpty || (r[1] as String).isEmpty || (r[2] as String).isEmpty,
                               "\(what): a reject has location '\(r[0] as String)', reason '\(r[1] as String)' and raw text '\((r[2] as String).prefix(80))'",
                               file: file, line: line)
            }
        case .unchanged:
            XCTFail("\(what): a hostile file is not the good one", file: file, line: line)
        }
    }

    // MARK: Support

    /// A fresh warehouse holding the base assets.
    static func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        let o = try t.importFile(try t.write(Table.baseAssets, to: "base/base-assets.csv"))
        XCTAssertEqual(o.loaded, 2, o.error ?? "")
        return t
    }

    static func head(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.read(upToCount: InputFile.headLength) ?? Data()
    }
}
