import Foundation

/// What a JPEG's frame header (SOF) and first scan header (SOS) say about the memory libjpeg
/// will take to decode it, read without decoding anything.
///
/// Why this exists: libjpeg decodes a baseline JPEG a strip of rows at a time, but a
/// progressive one (or a sequential one whose components come in separate scans) only outputs
/// rows after the last scan, so it keeps every DCT coefficient of the whole image: 2 bytes per
/// sample, at the components' own sampling, whatever reduced size the output is asked for. A
/// 192-byte file can declare 6000 × 6600 progressive colour and make libjpeg take 238 MB
/// (measured). Leptonica's header reader does not say which kind a file is; these bytes do.
public struct JPEGFrame: Equatable, Sendable {
    public struct Component: Equatable, Sendable {
        public var horizontal: Int
        public var vertical: Int
    }

    public var width: Int
    public var height: Int
    public var progressive: Bool
    public var components: [Component]
    /// Components in the first scan; fewer than all means libjpeg buffers the whole image too.
    /// Nil when no scan header was found (the estimate then assumes the worst).
    public var firstScanComponents: Int?

    /// Whether libjpeg keeps the whole image's coefficients (its `has_multiple_scans`).
    public var buffersWholeImage: Bool {
        progressive || (firstScanComponents ?? 0) < components.count
    }

    /// The bytes of libjpeg's whole-image coefficient arrays: per component, its 8 × 8 blocks
    /// (rounded up to whole MCUs) × 64 coefficients × 2 bytes. Zero for a strip-decoded file.
    public var coefficientBytes: Int {
        guard buffersWholeImage else { return 0 }
        let hMax = components.map(\.horizontal).max() ?? 1, vMax = components.map(\.vertical).max() ?? 1
        return components.reduce(0) { sum, c in
            let w = (width * c.horizontal + hMax - 1) / hMax, h = (height * c.vertical + vMax - 1) / vMax
            let bw = roundUp((w + 7) / 8, c.horizontal), bh = roundUp((h + 7) / 8, c.vertical)
            return sum + bw * bh * 128
        }
    }

    /// libjpeg's per-strip buffers for one iMCU row (sample rows of every component, upsampling
    /// and colour conversion), generously: 64 bytes per column per component.
    public var stripBytes: Int { width * max(components.count, 1) * 64 }

    private func roundUp(_ n: Int, _ m: Int) -> Int { m <= 1 ? n : (n + m - 1) / m * m }

    /// Reads the markers up to the first scan header. Nil when the file is not a JPEG or no
    /// frame header is found before the first scan (the caller then refuses or assumes the worst).
    public static func read(path: String) -> JPEGFrame? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func bytes(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard (try? handle.seek(toOffset: offset)) != nil, let d = try? handle.read(upToCount: count), d.count == count else { return nil }
            return [UInt8](d)
        }
        guard bytes(0, 2) == [0xFF, 0xD8] else { return nil }
        var offset: UInt64 = 2
        var frame: JPEGFrame?
        // A few hundred segments at most before the first scan in any real file (APPn, DQT, DHT…).
        for _ in 0..<1000 {
            guard let m = bytes(offset, 2), m[0] == 0xFF else { return nil }
            let marker = m[1]
            if marker == 0xFF { offset += 1; continue }                  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xD9 { return frame }                           // EOI before any scan
            guard let l = bytes(offset + 2, 2) else { return frame }
            let length = Int(l[0]) << 8 | Int(l[1])
            guard length >= 2, let body = bytes(offset + 4, length - 2) else { return frame }
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard body.count >= 6 else { return nil }
                let n = Int(body[5])
                guard n >= 1, body.count >= 6 + 3 * n else { return nil }
                let comps = (0..<n).map { i in
                    Component(horizontal: max(1, Int(body[7 + 3 * i] >> 4)), vertical: max(1, Int(body[7 + 3 * i] & 0x0F)))
                }
                frame = JPEGFrame(width: Int(body[3]) << 8 | Int(body[4]), height: Int(body[1]) << 8 | Int(body[2]),
                                  progressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker), components: comps, firstScanComponents: nil)
            case 0xDA:
                frame?.firstScanComponents = body.first.map(Int.init)
                return frame
            default:
                break
            }
            offset += 2 + UInt64(length)
        }
        return frame
    }
}
