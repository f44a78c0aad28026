import FleetCore
import FleetWarehouse

/// Whether an asset moved in a time window, from its odometer readings or, without them, its
/// positions. Compliance needs this finer than a day: a defect reported at 06:30 and repaired
/// at 09:00 is a violation only if the vehicle was driven in between.
enum Movement {
    /// Metres the asset moved in [from, to), or nil when there is no telematics in the window to
    /// tell either way.
    static func metres(_ reader: any WarehouseReader, asset: Int64, from: Int64, to: Int64) throws -> Double? {
        guard to > from else { return 0 }
        // The odometer at the edges: the last reading at or before each edge.
        let before = try reader.value("SELECT value FROM meter_reading WHERE asset_id = ? AND meter = 'odometer' AND at <= ? ORDER BY at DESC LIMIT 1",
                                      [.integer(asset), .instant(from)], as: Double.self)
        let inside = try reader.all("SELECT MIN(value), MAX(value), COUNT(*) FROM meter_reading WHERE asset_id = ? AND meter = 'odometer' AND at > ? AND at < ?",
                                    [.integer(asset), .instant(from), .instant(to)]) { (lo: try $0[0] as Double?, hi: try $0[1] as Double?, count: try $0[2] as Int) }.first
        if let inside, inside.count > 0, let hi = inside.hi, let lo = before ?? inside.lo {
            return max(hi - lo, 0)
        }
        let positions = try reader.all("SELECT lat, lon FROM position WHERE asset_id = ? AND at >= ? AND at < ? ORDER BY at",
                                       [.integer(asset), .instant(from), .instant(to)]) { (try $0[0] as Double, try $0[1] as Double) }
        guard let first = positions.first else {
            // No reading inside: if readings exist on both sides and agree, it did not move.
            let after = try reader.value("SELECT value FROM meter_reading WHERE asset_id = ? AND meter = 'odometer' AND at >= ? ORDER BY at LIMIT 1",
                                         [.integer(asset), .instant(to)], as: Double.self)
            if let before, let after { return max(after - before, 0) }
            return nil
        }
        var furthest = 0.0
        for p in positions {
            furthest = max(furthest, Geo.haversine(first.0, first.1, p.0, p.1))
        }
        return furthest
    }
}

import Foundation
