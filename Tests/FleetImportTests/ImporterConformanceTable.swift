import Foundation
import FleetCore
import FleetTestSupport

/// What the importer conformance suite needs to know of one format: real files of it, how it is
/// detected, its format-specific hostile classes and how to write a large file of it. Every
/// format of `ImporterRegistry.all` must have an entry (ImporterConformanceTests fails naming the
/// format that has none), so a format added later is held to the same rules from its first day.
struct ConformanceEntry {
    /// How the format is told from others.
    enum Detection {
        /// From the bytes alone: any name, even another format's extension, gives this format.
        case content
        /// The name carries what the bytes cannot; `why` says what and why.
        case needsName(why: String)
    }

    var format: String
    /// Files that import with rows loaded; the first is the one the hostile classes start from.
    var good: [URL]
    /// `--asset` for files that cannot say which asset they belong to (GPX, OBD logs, receipts).
    var asset: String?
    var detection: Detection = .content
    /// The format's own hostile classes beyond the ones every format gets (empty, truncated,
    /// binary garbage, invalid text, an oversized value): XML entities and DTDs, JSON nesting.
    var hostile: [HostileClass] = []
    /// Writes about `bytes` bytes of this format to a file, for the memory test; nil with the
    /// reason when the format has no large input (a receipt is one photo, whose memory is
    /// bounded by the OCR budget: FleetOCRTests' OCRDecompressionBombTests).
    var large: LargeInput?
    /// Memory that grows with the number of distinct things (assets, DVIRs) a file names, as
    /// measured when the suite was written: allowed on top of the bound, per row, with why.
    /// Not a goal: a finding the suite keeps from getting worse until it is fixed.
    var knownGrowth: KnownGrowth?
}

struct KnownGrowth {
    var bytesPerRow: Int
    var why: String
}

/// A large generated file: a head, a unit repeated with its counter until the size is reached,
/// a tail. Written in chunks, so the test itself stays small.
struct LargeInput {
    var name: String
    var head: String
    var unit: @Sendable (Int) -> String
    var tail: String = ""

    func write(to folder: URL, bytes: Int) throws -> URL {
        let url = folder.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var chunk = Data(head.utf8)
        var written = 0
        var i = 0
        while written + chunk.count < bytes {
            chunk.append(contentsOf: unit(i).utf8)
            i += 1
            if chunk.count > 1 << 20 { try handle.write(contentsOf: chunk); written += chunk.count; chunk.removeAll(keepingCapacity: true) }
        }
        chunk.append(contentsOf: tail.utf8)
        try handle.write(contentsOf: chunk)
        return url
    }
}

/// A class of hostile input. Every format gets the generic ones; XML and JSON formats add theirs.
enum HostileClass: String, CaseIterable {
    case empty, truncated, binaryGarbage, invalidText, oversizedValue
    /// XML: a DOCTYPE declaring an entity (entities are never resolved; the file is refused).
    case xmlEntity
    /// JSON: 5,000 nested arrays (the parser's depth limit is 256).
    case jsonDeepNesting

    static let generic: [HostileClass] = [.empty, .truncated, .binaryGarbage, .invalidText, .oversizedValue]
}

enum ConformanceTable {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData")

    /// The asset that files without identity are attributed to (`--asset`); made by `baseAssets`.
    static let unit = "C-01"
    /// Imported first in every warehouse of the suite: the asset `--asset` names. Its unit is in
    /// no fixture, so no order of the fixtures can update it.
    static let baseAssets = "unit_number,kind,make,model\nC-01,truck,Ford,F-150\nT-12,truck,Freightliner,Cascadia\n"

    static func f(_ path: String) -> URL { fixtures.appendingPathComponent(path) }

    static let entries: [ConformanceEntry] = [
        ConformanceEntry(format: "assets", good: [f("assets/good.csv")], large: csv("assets.csv",
            "unit_number,kind,vin,make,model,year,fuel_type,asset_group,cost_center", { "A-\($0),truck,,Ford,F-150,2023,gasoline,Pickups,CC-100" })),
        ConformanceEntry(format: "drivers", good: [f("drivers/good.csv")], large: csv("drivers.csv",
            "Employee ID,First Name,Last Name,License Number,License State,License Expiration,Status", { "E\($0),Maria,Gonzalez,L\($0),TX,2028-03-31,Active" })),
        ConformanceEntry(format: "assignments", good: [f("assignments/good.csv")], large: csv("assignments.csv",
            "Employee ID,Driver Name,Unit #,Start Date,End Date,Status", { "E\($0),Driver \($0),C-01,2026-10-01,2026-10-02,Completed" })),
        ConformanceEntry(format: "maintenance", good: [f("maintenance/good.csv")], large: csv("maintenance.csv",
            "Unit Number,Service Type,Completed At,Odometer,Odometer Unit,Engine Hours,Vendor,Work Order #,Total,Currency,Status,Notes",
            { "C-01,Oil Change,2026-10-03,\(1000 + $0),mi,,Quick Lube,WO-\($0),89.95,,Completed," })),
        ConformanceEntry(format: "service-schedules", good: [f("service-schedules/good.csv")], large: csv("service-schedules.csv",
            "Unit Number,Asset Group,Service Type,Every Days,Due Soon Days", { "C-01,,Service \($0),90,7" })),
        ConformanceEntry(format: "expenses", good: [f("expenses/good.csv")], large: csv("expenses.csv",
            "expense_id,date,unit_number,vin,vehicle,category,amount,currency,vendor,description", { "X-\($0),2026-10-03,C-01,,,Tolls,12.50,,E-ZPass,toll \($0)" })),
        ConformanceEntry(format: "fuel-card", good: [f("fuel-card/good.csv")], large: csv("fuel-card.csv",
            "Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Merchant Name,Product,Gallons,Price Per Gallon,Total Amount",
            { "2026-10-01,06:42:10,WX-\($0),****1234,C-01,Pilot,Diesel #2,10.000,3.000,30.00" })),
        ConformanceEntry(format: "fuel-dispense", good: [f("fuel-dispense/good.csv")], large: csv("fuel-dispense.csv",
            "transaction_id,date,time,tank,unit_number,litres,engine_hours", { "D-\($0),2026-10-01,18:05:00,YARD-D1,C-01,120.5,\(1000 + $0)" })),
        ConformanceEntry(format: "fuel-delivery", good: [f("fuel-delivery/good.csv")], large: csv("fuel-delivery.csv",
            "date,time,tank,gallons,cost,currency,supplier,invoice", { "2026-10-01,05:30:00,YARD-D1,1000.000,3400.00,USD,Heartland,H-\($0)" })),
        ConformanceEntry(format: "dvir", good: [f("dvir/good.csv")], large: csv("dvir.csv",
            "dvir_id,unit_number,employee_id,driver_name,type,inspection_start,signed_time,safety_status,odometer_mi,location",
            { "D-\($0),C-01,E1001,Dana Ruiz,Pre-Trip,2026-10-01T05:40:00-05:00,2026-10-01T05:52:00-05:00,safe,120400,Yard 1" }),
            knownGrowth: KnownGrowth(bytesPerRow: 600, why: "bounded, not a leak: the key ledger keeps each DVIR's fields (about 600 bytes) for the first 50,000 "
                + "DVIRs of a file, then spills to disk; these sizes straddle that point (60→90 MB for 19,000→58,000 DVIRs; 92.7 MB at 60,000 and 92.2 MB at 120,000)")),
        ConformanceEntry(format: "gpx", good: [f("gpx/gpx11-garmin.gpx")], asset: unit, hostile: [.xmlEntity],
            large: LargeInput(name: "track.gpx",
                head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n",
                unit: { "<trkpt lat=\"41.5\" lon=\"-87.5\"><time>\(iso($0))</time></trkpt>\n" }, tail: "</trkseg></trk></gpx>\n")),
        ConformanceEntry(format: "elm327", good: [f("obd/elm-clock-times.log")], asset: unit,
            large: LargeInput(name: "elm.log", head: "2026-10-01T00:00:00Z ATZ\nELM327 v1.5\n",
                unit: { "\(clock($0)) >> 010C\n\(clock($0)) << 41 0C 1A \(String(format: "%02X", $0 % 256))\n" })),
        ConformanceEntry(format: "torque", good: [f("obd/torque-basic.csv")], asset: unit,
            large: LargeInput(name: "trackLog.csv", head: "GPS Time, Device Time, Longitude, Latitude,Engine RPM(rpm),Speed (OBD)(km/h)\n",
                unit: { "-,0\(1 + $0 / 86_400)-Oct-2026 \(clock($0)) CDT,-,-,\(800 + $0 % 2000),\($0 % 90)\n" })),
        // Detected from content; reading it needs the name, which holds the recording's day (its
        // rows count seconds from local midnight): under a neutral name it is refused, saying so.
        ConformanceEntry(format: "car-scanner", good: [f("obd/car-scanner 2026-10-01 08-00-00.csv")], asset: unit,
            large: LargeInput(name: "car-scanner 2026-10-01 08-00-00.csv", head: "\"SECONDS\";\"PID\";\"VALUE\";\"UNITS\";\n",
                unit: { "\"\($0).000\";\"Engine RPM\";\"\(800 + $0 % 2000)\";\"rpm\";\n" })),
        ConformanceEntry(format: "obd-csv", good: [f("obd/pyobd-ts-epoch-ms.csv"), f("obd/logger-epoch-seconds.csv")], asset: unit,
            large: csv("obd_log.csv", "ts,RPM,SPEED,COOLANT_TEMP,lat,lon", { "\(1_790_812_800_000 + Int64($0) * 1000),\(800 + $0 % 2000),\($0 % 90),\(70 + $0 % 20),41.5,-87.5" })),
        // Device milliseconds timed by the GPS date and time PIDs: the large file anchors once, then one RPM reading per 100 ms.
        ConformanceEntry(format: "freematics", good: [f("obd/freematics-restarts.csv"), f("obd/freematics-one-relative.csv")], asset: unit,
            large: LargeInput(name: "DAT00001.CSV", head: "#FREEMATICS\n1000:10=0\n1000:11=11026\n",
                unit: { "\(1100 + $0 * 100):10C=\(800 + $0 % 2000)\n" })),
        ConformanceEntry(format: "python-obd", good: [f("obd/python-obd-values.log"), f("obd/python-obd-logging.log")], asset: unit,
            large: LargeInput(name: "obd-values.log", head: "", unit: { "\(iso($0)) - RPM: \(800 + $0 % 2000) rpm\n" })),
        ConformanceEntry(format: "iso15143", good: [f("iso15143/ts-hours-page1.xml"), f("iso15143/bosch-fleet-snapshot.json")],
            hostile: [.xmlEntity], large: LargeInput(name: "hours.xml",
                head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CumulativeOperatingHoursMessages xmlns=\"http://standards.iso.org/iso/15143/-3\">\n"
                    + "<EquipmentHeader><OEMName>JOHN DEERE</OEMName><Model>260E</Model><EquipmentID>1DW260EXJEF009999</EquipmentID>"
                    + "<SerialNumber>1DW260EXJEF009999</SerialNumber><PIN>1DW260EXJEF009999</PIN></EquipmentHeader>\n",
                unit: { "<CumulativeOperatingHours datetime=\"\(iso($0 * 60))\"><Hour>\(100 + Double($0) / 60)</Hour></CumulativeOperatingHours>\n" },
                tail: "</CumulativeOperatingHoursMessages>\n")),
        ConformanceEntry(format: "aemp12", good: [f("aemp12/gpsinsight-fleet.xml")], hostile: [.xmlEntity],
            large: LargeInput(name: "fleet.xml", head: "<?xml version=\"1.0\"?>\n<Fleet version=\"1.2\" snapshotTime=\"2026-10-02T17:50:35+00:00\" xmlns=\"http://schemas.aemp.org/fleet\">\n",
                unit: { "<Equipment><EquipmentHeader><Make>Toyota</Make><Model>Sienna</Model><SerialNumber>S\($0)</SerialNumber></EquipmentHeader>"
                    + "<Distance datetime=\"2026-10-02T15:22:29+00:00\"><OdometerUnits>miles</OdometerUnits><Odometer>\($0)</Odometer></Distance></Equipment>\n" },
                tail: "</Fleet>\n"),
            knownGrowth: KnownGrowth(bytesPerRow: 64, why: "every row is a new machine, and a file's derivations keep one span per machine they must "
                                     + "redo (TouchedTimeline, about 0.09 KB measured: 63.7→65.9 MB for 8,331→24,857 machines, debug): bounded by the "
                                     + "fleet's size, never by the rows per machine. Reading every asset's label (0.26 KB per machine) or keeping an "
                                     + "empty day path per machine fails this bound")),
        ConformanceEntry(format: "samsara", good: [f("samsara/stats-history.json"), f("samsara/vehicles.json")], hostile: [.jsonDeepNesting],
            large: LargeInput(name: "stats.json", head: "{\"data\": [{\"id\": \"281474977079999\", \"name\": \"C-01\", \"obdOdometerMeters\": [\n",
                unit: { "{\"time\": \"\(iso($0 * 10))\", \"value\": \(1_000_000 + $0 * 100)},\n" },
                tail: "{\"time\": \"2030-01-01T00:00:00Z\", \"value\": 999999999}]}], \"pagination\": {\"endCursor\": \"\", \"hasNextPage\": false}}\n")),
        ConformanceEntry(format: "geotab", good: [f("geotab/status-b1.json"), f("geotab/unordered.json")], hostile: [.jsonDeepNesting],
            large: LargeInput(name: "StatusData.json", head: "{\"result\": [\n",
                unit: { "{\"dateTime\": \"\(iso($0 * 10))\", \"device\": {\"id\": \"b1\"}, \"diagnostic\": {\"id\": \"DiagnosticOdometerId\"}, \"data\": \(1_000_000 + $0 * 100), \"id\": \"s\($0)\"},\n" },
                tail: "{\"dateTime\": \"2030-01-01T00:00:00Z\", \"device\": {\"id\": \"b1\"}, \"diagnostic\": {\"id\": \"DiagnosticOdometerId\"}, \"data\": 999999999, \"id\": \"last\"}]}\n")),
        ConformanceEntry(format: "motive", good: [f("motive/locations-v3.json"), f("motive/vehicle-locations-current.json")], hostile: [.jsonDeepNesting],
            large: LargeInput(name: "vehicle_locations.json", head: "{\"vehicle_locations\": [\n",
                unit: { "{\"vehicle_location\": {\"located_at\": \"\(iso($0 * 10))\", \"lat\": 41.5, \"lon\": -87.5, \"bearing\": 90.0, \"speed\": 0.0, "
                    + "\"true_odometer\": \(100_000 + Double($0) / 100), \"true_engine_hours\": 1000.0, \"vehicle\": {\"id\": 5001, \"number\": \"Q-1\", \"metric_units\": true}}},\n" },
                tail: "{\"vehicle_location\": {\"located_at\": \"2030-01-01T00:00:00Z\", \"lat\": 41.5, \"lon\": -87.5, \"true_odometer\": 1999999, \"vehicle\": {\"id\": 5001, \"metric_units\": true}}}],"
                    + " \"pagination\": {\"per_page\": 100, \"page_no\": 1, \"total\": 1}}\n")),
        ConformanceEntry(format: "traccar", good: [f("traccar/route-11.json"), f("traccar/devices.json"), f("traccar/trips-11.json")], hostile: [.jsonDeepNesting],
            large: LargeInput(name: "route.json", head: "[\n",
                unit: { "{\"id\": \($0), \"attributes\": {\"ignition\": true, \"odometer\": \(1_000_000 + $0 * 100)}, \"deviceId\": 7, \"protocol\": \"teltonika\", "
                    + "\"serverTime\": \"\(iso($0 * 10))\", \"deviceTime\": \"\(iso($0 * 10))\", \"fixTime\": \"\(iso($0 * 10))\", \"outdated\": false, \"valid\": true, "
                    + "\"latitude\": 41.5, \"longitude\": -87.5, \"altitude\": 180.0, \"speed\": 20.0, \"course\": 90.0},\n" },
                tail: "{\"id\": 0, \"attributes\": {}, \"deviceId\": 7, \"fixTime\": \"2030-01-01T00:00:00.000+00:00\", \"latitude\": 41.5, \"longitude\": -87.5}]\n")),
        ConformanceEntry(format: "deere", good: [f("deere/engine-hours-1234567.json"), f("deere/equipment.json")], hostile: [.jsonDeepNesting],
            large: LargeInput(name: "engine-hours-7654321.json",
                head: "{\"links\": [{\"@type\": \"Link\", \"rel\": \"machine\", \"uri\": \"https://partnerapi.deere.com/platform/machines/7654321\"}], \"values\": [\n",
                unit: { "{\"@type\": \"EngineHours\", \"reading\": {\"@type\": \"measurementAsDouble\", \"valueAsDouble\": \(100 + Double($0) / 60), \"unit\": \"Hours\"}, \"reportTime\": \"\(iso($0 * 60))\", \"source\": \"TM\"},\n" },
                tail: "{\"@type\": \"EngineHours\", \"reading\": {\"@type\": \"measurementAsDouble\", \"valueAsDouble\": 99999, \"unit\": \"Hours\"}, \"reportTime\": \"2030-01-01T00:00:00.000Z\", \"source\": \"TM\"}]}\n")),
        ConformanceEntry(format: "receipt", good: [sampleData.appendingPathComponent("receipts/T-12/receipt-2026-10-14-shell.png")], asset: "T-12"),
        ConformanceEntry(format: "fx-rates", good: [sampleData.appendingPathComponent("master/fx-rates.csv")], large: csv("fx-rates.csv",
            "date,currency,per_base", { "\(day($0 / currencies.count)),\(currencies[$0 % currencies.count]),1.\(1000 + $0 % 9000)" })),
    ]

    static let currencies = ["CAD", "EUR", "GBP", "JPY", "MXN", "CHF", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "BRL", "INR", "CNY", "KRW", "SGD", "HKD"]

    static func csv(_ name: String, _ header: String, _ row: @escaping @Sendable (Int) -> String) -> LargeInput {
        LargeInput(name: name, head: header + "\n", unit: { row($0) + "\n" })
    }

    /// 2026-10-01T00:00:00Z plus `seconds`, as ISO 8601 UTC.
    static func iso(_ seconds: Int) -> String { Timestamp.iso(1_790_812_800_000 + Int64(seconds) * 1000) }
    /// The time of day `seconds` after midnight, `HH:MM:SS.000`.
    static func clock(_ seconds: Int) -> String { String(format: "%02d:%02d:%02d.000", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60) }
    /// 1980-01-01 plus `days`, `YYYY-MM-DD`.
    static func day(_ days: Int) -> String { String(Timestamp.iso(315_532_800_000 + Int64(days) * 86_400_000).prefix(10)) }
}
