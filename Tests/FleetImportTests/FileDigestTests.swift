import XCTest
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// The file hash runs beside the import (FileDigest); what is stored and how re-imports are
/// recognised must be what the up-front hash gave.
final class FileDigestTests: XCTestCase {
    let assets = "unit_number,vin\nT-01,1FTFW1E50PFA00001\n"

    func testTheStoredDigestIsTheFilesSHA256() throws {
        let t = try TestWarehouse()
        let url = try t.write(assets, to: "assets.csv")
        XCTAssertEqual(try t.importFile(url).status, .imported)
        let stored: String = try t.rows("SELECT sha256 FROM source_file")[0][0]
        XCTAssertEqual(stored, SHA256.hex(of: Data(assets.utf8)))
        XCTAssertEqual(stored.count, 64)
    }

    /// A copy under another name is the same file (unchanged); a file of the same size with other
    /// bytes is a new one; a file of another size never waits for its hash before loading.
    func testSameSizeFilesAreTellApartByTheirDigest() throws {
        let t = try TestWarehouse()
        let first = try t.write(assets, to: "a/assets.csv")
        let copy = try t.write(assets, to: "b/assets.csv")
        let sameSize = try t.write(assets.replacingOccurrences(of: "T-01,1FTFW1E50PFA00001", with: "T-02,1FTFW1E50PFA00002"), to: "c/assets.csv")
        let longer = try t.write(assets + "T-03,\n", to: "d/assets.csv")
        let summary = try t.importFiles([first.path, copy.path, sameSize.path, longer.path])
        XCTAssertEqual(summary.files.map(\.status), [.imported, .unchanged, .imported, .imported])
        XCTAssertEqual(summary.files[1].sourceFileID, summary.files[0].sourceFileID)
        let digests: [String] = try t.rows("SELECT sha256 FROM source_file ORDER BY id").map { $0[0] }
        XCTAssertEqual(digests, try [first, sameSize, longer].map { try SHA256.hex(ofFile: $0) })
        XCTAssertEqual(try t.count("asset"), 3)
    }

    func testAnUnreadableFileFailsWithTheReadError() throws {
        let digest = FileDigest(URL(fileURLWithPath: "/nonexistent/track.gpx"))
        XCTAssertThrowsError(try digest.value()) { error in
            guard case FleetError.io(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/track.gpx")
        }
        digest.finish()
    }

    /// `finish` stops a hash that is no longer wanted and returns once its thread is done.
    func testFinishStopsTheHash() throws {
        let t = try TestWarehouse()
        let big = t.directory.appendingPathComponent("big.bin")
        FileManager.default.createFile(atPath: big.path, contents: Data(count: 64 << 20))
        let digest = FileDigest(big)
        digest.finish()
        // Either it finished before the stop (the digest) or it stopped (CancellationError).
        switch Result(catching: { try digest.value() }) {
        case .success(let hex): XCTAssertEqual(hex, try SHA256.hex(ofFile: big))
        case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }
}
