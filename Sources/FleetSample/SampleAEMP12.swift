import Foundation
import FleetCore

/// AEMP 1.2 fleet snapshots from a legacy GPS Insight feed that the tractors (the Cascadia 126
/// units) still carry: one file per local day, `aemp12/gpsinsight/fleet-YYYY-MM-DD.xml`, in
/// the AEMP 1.2 namespace, with `Make` (no `OEMName`, no `PIN`), the VIN as `EquipmentID` (as
/// GPS Insight sends it, which is how FleetKit links the unit to the vehicle Samsara and master
/// data know) and the hour meter as an xs:duration (`PT1234H5M6S`).
///
/// Why only the hour meter, and why at midnight. Every sample machine already reports through
/// an ISO 15143-3 feed and every vehicle through Samsara, so this feed can only add readings of
/// counters the warehouse already has. The warehouse keeps one reading per (asset, meter,
/// instant) and sums deltas between consecutive readings, so a second source double counts
/// nothing as long as its values fit the counter; a value that does not fit (another device's
/// rounding) would show as a rollback. The snapshot therefore reads each tractor's hour meter
/// at local midnight, when it is parked, and reports exactly the engine seconds Samsara's OBD
/// counter has then (whole seconds: the model's 0.01 h grid is 36 s). Odometers are left out:
/// miles with decimals cannot repeat the OBD metres exactly. Positions are left out too: a
/// midnight fix would only repeat the yard.
extension SampleWriter {
    mutating func writeAEMP12() throws {
        let tractors = fleet.assets.indices.filter {
            fleet.assets[$0].model.telematics == "samsara" && fleet.assets[$0].model.model == "Cascadia 126" && fleet.assets[$0].vin != nil
        }
        guard !tractors.isEmpty else { return }
        // Engine seconds at the start of each day: Samsara's counter, which starts at the
        // asset's hours and adds each operated day's hours on the 36-second grid.
        var seconds = Dictionary(uniqueKeysWithValues: tractors.map { ($0, Int64((fleet.assets[$0].engineHours * 3600).rounded())) })
        let usage = Dictionary(uniqueKeysWithValues: tractors.map { ($0, fleet.usage(of: $0)) })
        for d in 0..<fleet.days {
            let day = fleet.start.adding(days: d)
            let midnight = localISO(day, 0, 0)
            let snapshot = localISO(day, 0, 5)
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- GPS Insight AEMP 1.2 fleet snapshot, saved by the nightly job. -->\n"
            xml += "<Fleet version=\"1.2\" snapshotTime=\"\(snapshot.text)\" xmlns=\"http://schemas.aemp.org/fleet\">\n"
            for i in tractors {
                let a = fleet.assets[i]
                let s = seconds[i]!
                xml += "  <Equipment>\n    <EquipmentHeader>\n"
                xml += "      <Make>\(a.model.make)</Make>\n      <Model>\(a.model.model)</Model>\n"
                xml += "      <EquipmentID>\(a.vin!)</EquipmentID>\n      <SerialNumber>\(4_570_000_000 + i * 1_013)</SerialNumber>\n"
                xml += "    </EquipmentHeader>\n"
                xml += "    <CumulativeOperatingHours datetime=\"\(midnight.text)\">\n"
                xml += "      <Hour>PT\(s / 3600)H\(s % 3600 / 60)M\(s % 60)S</Hour>\n    </CumulativeOperatingHours>\n"
                xml += "  </Equipment>\n"
                let u = usage[i]![d]
                if u.operated { seconds[i]! += Int64((u.engineHours * 100).rounded()) * 36 }
            }
            xml += "</Fleet>\n"
            try write(xml, to: "aemp12/gpsinsight/fleet-\(day).xml")
        }
    }
}
