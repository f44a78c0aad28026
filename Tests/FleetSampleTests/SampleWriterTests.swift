import XCTest
import FleetCore
import FleetTestSupport
@testable import FleetSample

final class SampleWriterTests: XCTestCase {
    private func generate(seed: UInt64 = 42) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sample-\(UUID())")
        var writer = SampleWriter(fleet: SampleFleet(seed: seed), root: dir)
        _ = try writer.writeAll()
        return dir
    }

    private func contents(of dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)!
        for case let url as URL in e where !url.hasDirectoryPath {
            out[String(url.path.dropFirst(dir.path.count))] = try Data(contentsOf: url)
        }
        return out
    }

    func testSameSeedIsByteIdentical() throws {
        let a = try contents(of: try generate()), b = try contents(of: try generate())
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, try contents(of: try generate(seed: 7)))
    }

    /// The committed SampleData is exactly what the generator writes with its defaults.
    func testCommittedSampleDataIsTheGeneratorsOutput() throws {
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData")
        var generated = try contents(of: try generate())
        var onDisk = try contents(of: committed)
        // bad/ is written by hand and receipts/ by scripts/receipts/generate.py (images need Pillow).
        onDisk = onDisk.filter { !$0.key.hasPrefix("/bad/") && !$0.key.hasPrefix("/receipts/") && !$0.key.hasSuffix(".md") }
        generated = generated.filter { !$0.key.hasSuffix(".md") }
        XCTAssertEqual(Set(onDisk.keys), Set(generated.keys), "run `make sample` to regenerate SampleData")
        for (k, v) in generated { XCTAssertEqual(onDisk[k], v, "\(k) differs; run `make sample`") }
    }

    func testVINsHaveValidCheckDigitsAndUnitsAreUnique() {
        let fleet = SampleFleet()
        XCTAssertEqual(fleet.assets.count, 33)
        XCTAssertEqual(Set(fleet.assets.map(\.unit)).count, 33)
        for a in fleet.assets {
            if let vin = a.vin { XCTAssertTrue(VIN.hasValidCheckDigit(vin), vin) }
            if let pin = a.pin { XCTAssertEqual(pin.count, 17, pin) }
        }
    }

    func testUsageIsContinuous() {
        let fleet = SampleFleet()
        for i in fleet.assets.indices {
            let days = fleet.usage(of: i)
            XCTAssertEqual(days.count, 31)
            for (d, next) in zip(days, days.dropFirst()) {
                XCTAssertEqual(next.odometerKmAtStart, d.odometerKmAtStart + d.km, accuracy: 1e-6)
                XCTAssertEqual(next.engineHoursAtStart, d.engineHoursAtStart + d.engineHours, accuracy: 1e-6)
                if !d.operated { XCTAssertEqual(d.km + d.engineHours + d.fuelLitres, 0) }
            }
        }
    }
}
