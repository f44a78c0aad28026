import XCTest
@testable import FleetCore

final class SHA256Tests: XCTestCase {
    func testFIPSVectors() {
        XCTAssertEqual(SHA256.hex(of: Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testStreamingInOddChunksMatchesOneShot() {
        let data = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var h = SHA256()
        var i = 0
        for size in [1, 63, 64, 65, 7, 1000, 3] where i < data.count {
            h.update(data[i..<min(i + size, data.count)]); i += size
        }
        h.update(data[i...])
        XCTAssertEqual(h.finalize(), SHA256.hex(of: data))
    }

    func testFileMatchesSha256sum() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID()).bin")
        let data = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [url.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        p.waitUntilExit()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        XCTAssertEqual(try SHA256.hex(ofFile: url), String(expected))
    }
}

import Foundation
