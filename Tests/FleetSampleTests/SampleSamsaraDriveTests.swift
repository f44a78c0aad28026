import XCTest
import FleetCore
@testable import FleetSample

/// The generated Samsara stats describe one vehicle driving one drive at a time, as a real
/// gateway reports it: engine `On` and `Off` alternate in time order, each drive starts at least
/// `restBetweenDrives` after the previous one ended.
///
/// Why: a long-haul day of more than 24 h engine time (720 km at 32 km/h plus idle) ran past
/// midnight, and the next day's drive started at 00:00:30 while it still ran. On the
/// 1,000-vehicle benchmark year that gave 16 such overlaps (one carried an odometer value
/// repeated 1 h 47 min later after a 25 km move, which `fleetkit verify` rightly named as trips
/// the odometer never saw). A drive is a function of its date, so the sample that starts the
/// next day (the next month's) waits for it as well.
final class SampleSamsaraDriveTests: XCTestCase {
    func testNoVehicleDrivesTwoDrivesAtOnce() throws {
        let fleet = SampleFleet(vehicles: 1000, machines: 8, start: CivilDate(year: 2026, month: 1, day: 1)!, days: 22, seed: 42)
        let writer = SampleWriter(fleet: fleet, root: FileManager.default.temporaryDirectory)
        let vehicles = fleet.assets.indices.filter { fleet.assets[$0].model.telematics == "samsara" && fleet.assets[$0].samsaraID != nil }
        XCTAssertEqual(vehicles.count, 1000)
        var longDays = 0
        var firstLong: (index: Int, on: Int64, off: Int64)?
        for index in vehicles {
            let series = writer.samsaraSeries(of: index)
            let states = try (series.points["engineStates"] ?? []).map { try Self.sample($0.json) }.sorted { $0.at < $1.at }
            var on: Int64? = nil, lastOff: Int64? = nil
            for s in states {
                if s.value == "On" {
                    XCTAssertNil(on, "\(fleet.assets[index].unit): engine On at \(Timestamp.iso(s.at)) while already on")
                    if let lastOff {
                        XCTAssertGreaterThanOrEqual(s.at - lastOff, SampleWriter.restBetweenDrives,
                                                    "\(fleet.assets[index].unit): a drive starts \(Timestamp.iso(s.at)), too soon after the last ended")
                    }
                    on = s.at
                } else {
                    XCTAssertNotNil(on, "\(fleet.assets[index].unit): engine Off at \(Timestamp.iso(s.at)) while off")
                    if let start = on, s.at - start > 86_400_000 {
                        longDays += 1
                        if firstLong == nil { firstLong = (index, start, s.at) }
                    }
                    on = nil
                    lastOff = s.at
                }
            }
        }
        XCTAssertGreaterThan(longDays, 0, "the fleet has drives over 24 h, the case this test is about")
        // The sample that starts the day after a long drive (the next month's sample) knows
        // that drive: its first drive starts only after it ended, with the rest between.
        let long = try XCTUnwrap(firstLong)
        let nextStart = fleet.zone.day(of: long.on).adding(days: 1)
        let next = SampleFleet(vehicles: 1000, machines: 8, start: nextStart, days: 7, seed: 42)
        let states = try (SampleWriter(fleet: next, root: FileManager.default.temporaryDirectory).samsaraSeries(of: long.index).points["engineStates"] ?? [])
            .map { try Self.sample($0.json) }.sorted { $0.at < $1.at }
        let firstOn = try XCTUnwrap(states.first { $0.value == "On" })
        XCTAssertGreaterThanOrEqual(firstOn.at - long.off, SampleWriter.restBetweenDrives,
                                    "\(fleet.assets[long.index].unit): the sample from \(nextStart) starts a drive at \(Timestamp.iso(firstOn.at)) before the one of the day before ended")
    }

    private static func sample(_ json: String) throws -> (at: Int64, value: String) {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let at = try XCTUnwrap(Timestamp.parse(object["time"] as! String))
        let value = object["value"].map { "\($0)" } ?? ""
        return (at, value)
    }
}
