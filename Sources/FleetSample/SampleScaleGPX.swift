import Foundation
import FleetCore

/// `fleetkit sample --scale-points N`: one long GPS track of N points at 1 Hz for benchmarks
/// (`scale/<UNIT>/track-<N>.gpx`, the first vehicle; the folder names the unit). It is written in
/// 256 KiB chunks, so the generator's memory stays flat whatever N: 10 M points are about 2.5 GB.
///
/// The drive alternates 20 minutes of driving (speed 8–30 m/s, heading drifting a few degrees a
/// second) with 5 minutes parked (a few metres of jitter), so the importer sees real trips and
/// stops. It starts at local midnight of the sample's first day. It is kept out of the default
/// sample: SampleData stays small and the vehicle's Samsara data does not describe this drive.
extension SampleWriter {
    mutating func writeScaleGPX(points: Int) throws {
        guard points > 0, let index = fleet.assets.indices.first(where: { fleet.assets[$0].model.kind == "vehicle" }) else { return }
        let unit = fleet.assets[index].unit
        let url = root.appendingPathComponent("scale/\(unit)/track-\(points).gpx")
        let handle: FileHandle
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw FleetError.io(path: url.path, reason: "cannot write the sample file: \(error.localizedDescription)")
        }
        // Closed explicitly at the end, where a failure is reported; on an earlier error the
        // write error is the one to report, and the close only releases the descriptor.
        var closed = false
        defer { if !closed { try? handle.close() } }
        var buffer = ""
        buffer.reserveCapacity(300_000)
        func flush() throws {
            do { try handle.write(contentsOf: Data(buffer.utf8)) } catch {
                throw FleetError.io(path: url.path, reason: "cannot write the sample file: \(error.localizedDescription)")
            }
            buffer.removeAll(keepingCapacity: true)
        }
        buffer += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"fleetkit sample --scale-points\" "
            + "xmlns=\"http://www.topografix.com/GPX/1/1\">\n <trk>\n  <name>\(unit) scale track</name>\n  <trkseg>\n"
        var rng = SeededRandom(seed: fleet.seed).fork(9000)
        let start = fleet.zone.start(of: fleet.start)
        var lat = Self.yard.lat, lon = Self.yard.lon, heading = rng.double(0...(2 * Double.pi)), speed = 15.0
        for i in 0..<points {
            let moving = i % 1500 < 1200
            if moving {
                heading += rng.double(-0.05...0.05)
                speed = min(30, max(8, speed + rng.double(-0.8...0.8)))
                lat += speed * cos(heading) / 111_320
                lon += speed * sin(heading) / (111_320 * cos(lat * Double.pi / 180))
                // Stay within about 50 km of the yard: turn back when beyond it.
                if Geo.haversine(lat, lon, Self.yard.lat, Self.yard.lon) > 50_000 { heading += Double.pi }
            }
            let jitter = moving ? 0 : rng.double(-0.00002...0.00002)
            buffer += "   <trkpt lat=\"\(String(format: "%.6f", lat + jitter))\" lon=\"\(String(format: "%.6f", lon + jitter))\">"
                + "<ele>\(String(format: "%.1f", 200 + 10 * sin(Double(i) / 900)))</ele><time>\(Timestamp.iso(start + Int64(i) * 1000))</time></trkpt>\n"
            if buffer.utf8.count >= 256 * 1024 { try flush() }
        }
        buffer += "  </trkseg>\n </trk>\n</gpx>\n"
        try flush()
        closed = true
        do { try handle.close() } catch {
            throw FleetError.io(path: url.path, reason: "cannot finish the sample file: \(error.localizedDescription)")
        }
        written.append(url)
    }
}
