import Foundation

/// A GPX drive whose trips depend on one trip rule: ten minutes north at 15 m/s (a fix every
/// 30 s, 450 m apart), `stopSeconds` stopped on one spot (a fix every 30 s), ten minutes north
/// again. Under a stop rule shorter than the stop it is two trips; longer, one.
public enum StopAndGoGPX {
    public static func text(day: String, stopSeconds: Int = 300, startLat: Double = 41.0) -> String {
        var points: [(lat: Double, second: Int)] = []
        var lat = startLat
        var second = 0
        for _ in 0...20 { points.append((lat, second)); lat += 450 / 111_195; second += 30 }
        lat -= 450 / 111_195
        for _ in 0..<(stopSeconds / 30) { points.append((lat, second)); second += 30 }
        for _ in 0...20 { lat += 450 / 111_195; points.append((lat, second)); second += 30 }
        let start = ISO8601DateFormatter().date(from: day + "T14:00:00Z")!
        let formatter = ISO8601DateFormatter()
        let fixes = points.map { p in
            "<trkpt lat=\"\(String(format: "%.6f", p.lat))\" lon=\"-87.500000\"><time>\(formatter.string(from: start.addingTimeInterval(Double(p.second))))</time></trkpt>"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>Stop and go</name><trkseg>
        \(fixes.joined(separator: "\n"))
          </trkseg></trk>
        </gpx>

        """
    }

    /// An asset master file with unit T-01, the asset the drives are attributed to.
    public static let assets = """
        unit_number,kind,vin,pin,make,model,year,fuel_type,asset_group,cost_center,department,in_service_date,acquisition_cost,currency,target_hours_per_week,samsara_id
        T-01,truck,1FTFW1E50PFA00001,,Ford,F-150,2023,gasoline,Pickups,CC-100,Field Ops,2023-02-01,"48,500.00",USD,40,

        """
}
