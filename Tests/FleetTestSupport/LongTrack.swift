import Foundation

/// A GPX track long enough for its import to be caught running: tests kill or time out the
/// process importing it. 1 M points import in about 2 s in a debug build.
public enum LongTrack {
    /// `points` points at 1 Hz from 2026-10-01 00:00 UTC + `start` s, all at one place.
    public static func write(_ url: URL, points: Int, start: Int = 0) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let line = Array("<trkpt lat=\"41.5\" lon=\"-87.5\"><time>2026-10-DDTHH:MM:SSZ</time></trkpt>\n".utf8)
        let at = line.firstIndex(of: UInt8(ascii: "D"))!
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n".utf8)
        out.reserveCapacity(points * line.count + 200)
        func put(_ v: Int, _ i: Int) { out[i] = UInt8(48 + v / 10); out[i + 1] = UInt8(48 + v % 10) }
        for s in start..<(start + points) {
            let base = out.count
            out += line
            put(1 + s / 86_400, base + at)
            put(s / 3600 % 24, base + at + 3)
            put(s / 60 % 60, base + at + 6)
            put(s % 60, base + at + 9)
        }
        out += Array("</trkseg></trk></gpx>\n".utf8)
        try Data(out).write(to: url)
    }
}
