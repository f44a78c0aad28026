import Foundation
import FleetCore
import FleetWarehouse

/// Walks a saved Samsara API response, one page or a JSON array of pages, and hands each
/// record to the handler of its shape (one file per shape family in this folder).
///
/// Memory is bounded by one record: `data[]` is streamed, small records (a vehicle, a DVIR, a
/// driver) are materialised one at a time, and the per-vehicle stat arrays of the stats and
/// locations endpoints, which can hold millions of points, are streamed point by point.
///
/// Each small record is loaded in its own savepoint, so a record that cannot be used becomes
/// one reject (its path and raw text) and leaves nothing half-written. JSON that is not well
/// formed, truncated included, throws: the file's transaction is rolled back whole.
final class SamsaraReader<S: RecordSink>: SavedPagesReader {
    typealias Sink = S
    let input: InputFile
    var parser: JSONPullParser
    var tally = RecordTally()
    /// The asset that v1 trips belong to (their response names no vehicle), once resolved.
    var tripAsset: Int64?

    /// Records larger than this are rejected as oversized rather than held in memory.
    static var recordLimit: Int { 1 << 20 }

    init(_ input: InputFile) throws {
        self.input = input
        parser = try JSONPullParser(url: input.source)
    }

    func run(into sink: inout S) throws {
        try walkPages(into: &sink, members: "'data' and 'pagination'",
                      notAResponse: "this is JSON but not a Samsara API response, which is an object with a 'data' member (or an array of such pages)")
        for n in tally.notes() { sink.note(n) }
    }

    // MARK: Pages

    func page(prefix: String, into sink: inout S) throws {
        tally.pages += 1
        var sawData = false
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            switch k {
            case "data":
                sawData = true
                switch try parser.peek() {
                case .arrayStart?: try records(into: &sink)
                case .objectStart?: try reportContainer(into: &sink)
                case .null?: _ = try parser.next()
                default: throw parser.fail("'data' is \(try parser.readNode().kind); Samsara responses hold an array or an object there")
                }
            case "trips":
                sawData = true
                guard try parser.peek() == .arrayStart else { throw parser.fail("'trips' should be an array of v1 trips") }
                try v1Trips(into: &sink)
            case "pagination":
                let p = JSONFields(try parser.readNode(limit: 64 * 1024), at: prefix + "pagination")
                do { tally.lastPageHasNext = try p.bool("hasNextPage") } catch {
                    tally.lastPageHasNext = nil
                    sink.note("\(prefix)pagination.hasNextPage: \(error); whether the save holds every page is unknown")
                }
            case "requestStartTime", "requestEndTime", "vehicleId":
                try parser.skipValue()
            default:
                tally.unknown("page", [k])
                try parser.skipValue()
            }
        }
        guard sawData else {
            throw parser.fail("the page has no 'data' member (nor the v1 API's 'trips'), so it is not a Samsara response FleetKit reads")
        }
    }

    /// `data` as an object: report endpoints put arrays of records in it (`vehicleReports`).
    private func reportContainer(into sink: inout S) throws {
        _ = try parser.next()
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            if try parser.peek() == .arrayStart {
                _ = try parser.next()
                while try parser.peek() != .arrayEnd { try smallRecord(into: &sink) }
                _ = try parser.next()
            } else if ["year", "month", "quarter", "troubleshooting", "requestStartTime", "requestEndTime"].contains(k) {
                try parser.skipValue()
            } else {
                tally.unknown("data", [k])
                try parser.skipValue()
            }
        }
    }

    private func records(into sink: inout S) throws {
        _ = try parser.next()
        while let t = try parser.peek(), t != .arrayEnd {
            if t == .objectStart { try element(into: &sink) } else { try smallRecord(into: &sink) }
        }
        _ = try parser.next()
    }

    // MARK: Records

    /// One element of `data[]`. Stat and location arrays are streamed as they come; every other
    /// member is materialised. Without streamed arrays the element is a small record.
    private func element(into sink: inout S) throws {
        _ = try parser.next()
        let path = parser.path
        var fields: [JSONNode.Member] = []
        var series: SeriesState? = nil
        var oversized: String? = nil
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            if SamsaraStat.isSeries(k), try parser.peek() == .arrayStart {
                if series == nil { series = SeriesState(path: path, header: fields) }
                series!.header = fields
                try streamSeries(k, &series!, into: &sink)
                continue
            }
            do {
                fields.append(.init(key: k, value: try parser.readNode(limit: Self.recordLimit)))
            } catch let e as JSONNodeTooLarge {
                if SamsaraShape.knownKeys.contains(k) { oversized = e.path } else { tally.unknown("record", [k]) }
            }
        }
        if let oversized {
            try sink.reject(Issue(.oversizedRecord, at: oversized, "the member is larger than \(Self.recordLimit) bytes; "
                                  + (series == nil ? "the record was not read" : "the vehicle's other members were read"),
                                  raw: JSONNode.object(fields).render()))
            if series == nil { return }
        }
        if var s = series {
            try finishSeries(&s, fields: fields, into: &sink)
        } else {
            try record(.object(fields), at: path, into: &sink)
        }
    }

    /// A record that is not an object, or one inside a report container: read whole.
    private func smallRecord(into sink: inout S) throws {
        let node: JSONNode
        do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
            try sink.reject(Issue(.oversizedRecord, at: e.path, "the record is larger than \(Self.recordLimit) bytes and was not read"))
            return
        }
        try record(node, at: parser.path, into: &sink)
    }

    /// Classifies a materialised record and loads it in its own savepoint.
    func record(_ node: JSONNode, at path: String, into sink: inout S) throws {
        guard case .object = node else {
            try sink.reject(Issue(.wrongType, at: path, "a Samsara record is a JSON object, this is \(node.kind)", raw: node.render()))
            return
        }
        let f = JSONFields(node, at: path)
        let shape = SamsaraShape.classify(node)
        tally.saw(shape.label)
        if shape != .unknown { tally.unknown(shape.rawValue, f.unknownKeys(shape.known)) }
        try located(node, at: path, into: &sink) { s in
            switch shape {
            case .vehicle: try self.vehicle(f, &s)
            case .vehicleStats: try self.snapshot(f, &s)
            case .dvir: try self.dvir(f, &s)
            case .defect: try self.defect(f, &s)
            case .driver: try self.driver(f, &s)
            case .hosDailyLog: try self.hosDailyLog(f, &s)
            case .trip: try self.streamTrip(f, &s)
            case .idlingEvent, .idlingReport: try self.idling(f, shape, &s)
            case .fuelEnergy: self.fuelEnergy(f)
            case .ifta: self.tally.count("IFTA report rows not stored (jurisdiction distances have no warehouse table)")
            case .assetLocation: try self.assetLocation(f, &s)
            case .hosLogs: try self.hosLogs(f, &s)
            case .unknown:
                let keys = node.members.prefix(12).map(\.key).joined(separator: ", ")
                throw JSONRowError(.unknownShape, "not a Samsara record FleetKit reads (keys: \(keys)); see docs/FORMATS.md for the endpoints read", at: path)
            }
        }
    }

    /// Runs `body` as one savepoint; a row error becomes a reject at its path with the raw record.
    func located(_ node: JSONNode, at path: String, into sink: inout S, _ body: (inout S) throws -> Void) throws {
        do {
            try sink.atomically { s in try body(&s) }
        } catch let e as JSONRowError {
            try sink.reject(Issue(e.reason, at: e.path, e.message, raw: node.render()))
        } catch let e as RowError {
            try sink.reject(Issue(e.reason, at: path, e.message, raw: node.render()))
        }
    }
}

/// What kind of record an element of `data[]` is, told by the keys it has.
enum SamsaraShape: String {
    case vehicle, vehicleStats = "stats", dvir, defect, driver, hosDailyLog = "hosDailyLog", trip
    case idlingEvent = "idlingEvent", idlingReport = "idlingReport", fuelEnergy = "fuelEnergy", ifta, hosLogs = "hosLogs"
    case assetLocation = "assetLocation", unknown

    var label: String {
        switch self {
        case .vehicle: return "vehicles"
        case .vehicleStats: return "vehicle snapshots"
        case .dvir: return "DVIRs"
        case .defect: return "defects"
        case .driver: return "drivers"
        case .hosDailyLog: return "HOS daily logs"
        case .trip: return "trips"
        case .idlingEvent: return "idling events"
        case .idlingReport: return "idling report rows"
        case .fuelEnergy: return "fuel-energy report rows"
        case .ifta: return "IFTA report rows"
        case .hosLogs: return "HOS log lists"
        case .assetLocation: return "asset locations"
        case .unknown: return "unrecognised records"
        }
    }

    static func classify(_ node: JSONNode) -> SamsaraShape {
        func has(_ keys: String...) -> Bool { keys.contains { node[$0] != nil } }
        if has("dutyStatusDurations", "logMetaData", "pendingDutyStatusDurations") { return .hosDailyLog }
        if has("vehicleDefects", "trailerDefects", "dvirSubmissionTime", "dvirSubmissionBeginTime", "authorSignature", "safetyStatus", "defectIds",
               "walkaroundPhotos") { return .dvir }
        if has("isResolved", "defectType", "defectTypeId", "dvirId") { return .defect }
        if has("jurisdictions") || (has("jurisdiction") && has("taxableMeters", "totalMeters")) { return .ifta }
        if has("happenedAtTime"), has("location"), has("asset") { return .assetLocation }
        if has("hosLogs") { return .hosLogs }
        if has("fuelConsumedMl", "distanceTraveledMeters", "engineRunTimeDurationMs", "efficiencyMpge", "energyUsedKwh") { return .fuelEnergy }
        if has("eventUuid", "durationMilliseconds") { return .idlingEvent }
        if has("durationMs"), has("vehicle") { return .idlingReport }
        if has("tripStartTime", "tripEndTime") { return .trip }
        if has("licenseNumber", "username", "driverActivationStatus", "eldExempt", "staticAssignedVehicle") { return .driver }
        guard has("id") else { return .unknown }
        if node.members.contains(where: { SamsaraStat.named($0.key) != nil || $0.key == "location" }) { return .vehicleStats }
        return .vehicle
    }

    /// Every top-level key a record of this shape may have; others are counted as unknown.
    var known: Set<String> {
        switch self {
        case .vehicle: return SamsaraShape.vehicleKeys
        case .vehicleStats: return SamsaraShape.vehicleKeys.union(SamsaraStat.allNames).union(["location", "decorations"])
        case .dvir: return ["id", "type", "startTime", "endTime", "safetyStatus", "odometerMeters", "location", "licensePlate", "mechanicNotes",
                            "vehicle", "trailer", "trailerName", "authorSignature", "secondSignature", "thirdSignature", "vehicleDefects",
                            "trailerDefects", "dvirSubmissionBeginTime", "dvirSubmissionTime", "updatedAtTime", "formattedAddress",
                            "defectIds", "walkaroundPhotos"]
        case .defect: return SamsaraShape.defectKeys
        case .driver: return ["id", "name", "username", "phone", "licenseNumber", "licenseState", "eldExempt", "eldExemptReason", "timezone",
                              "externalIds", "staticAssignedVehicle", "tags", "driverActivationStatus", "createdAtTime", "updatedAtTime",
                              "carrierSettings", "eldSettings", "notes", "peerGroupTag", "locale", "vehicleGroupTag", "attributes",
                              "eldAdverseWeatherExemptionEnabled", "eldBigDayExemptionEnabled", "eldDayStartHour", "eldPcEnabled", "eldYmEnabled",
                              "isDeactivated", "hosSetting", "currentIdCardCode", "hasDrivingFeaturesHidden", "hasVehicleUnpinningEnabled",
                              "waitingTimeDutyStatusEnabled", "profileImageUrl", "usDriverRulesetOverride", "tachographCardNumber"]
        case .hosDailyLog: return ["driver", "startTime", "endTime", "dutyStatusDurations", "pendingDutyStatusDurations", "distanceTraveled", "logMetaData"]
        case .trip: return ["asset", "tripStartTime", "tripEndTime", "completionStatus", "startLocation", "endLocation", "createdAtTime", "updatedAtTime"]
        case .idlingEvent: return ["eventUuid", "asset", "operator", "startTime", "durationMilliseconds", "fuelConsumedMilliliters",
                                   "gaseousFuelConsumedGrams", "fuelCost", "airTemperatureMillicelsius", "latitude", "longitude", "ptoState", "address"]
        case .idlingReport: return ["vehicle", "startTime", "endTime", "durationMs", "fuelConsumptionMl", "isPtoActive", "address"]
        case .fuelEnergy: return ["vehicle", "driver", "distanceTraveledMeters", "fuelConsumedMl", "engineRunTimeDurationMs", "engineIdleTimeDurationMs",
                                  "efficiencyMpge", "energyUsedKwh", "estCarbonEmissionsKg", "estFuelEnergyCost"]
        case .ifta: return ["vehicle", "jurisdictions", "jurisdiction", "taxPaidLiters", "taxableMeters", "totalMeters"]
        case .assetLocation: return ["asset", "happenedAtTime", "location", "speed"]
        case .hosLogs: return ["driver", "hosLogs"]
        case .unknown: return []
        }
    }

    static let vehicleKeys: Set<String> = ["id", "name", "vin", "serial", "esn", "cameraSerial", "gateway", "licensePlate", "make", "model", "year",
                                           "externalIds", "ExternalIds", "tags", "staticAssignedDriver", "vehicleType", "createdAtTime",
                                           "updatedAtTime", "notes", "harshAccelerationSettingType", "auxInputType1", "auxInputType2",
                                           "vehicleRegulationMode", "attributes", "sensorConfiguration", "aux_input_type_1", "vehicleWeight"]
    static let defectKeys: Set<String> = ["id", "defectType", "defectTypeId", "comment", "createdAtTime", "isResolved", "resolvedAtTime", "resolvedBy",
                                          "mechanicNotes", "mechanicNotesUpdatedAtTime", "vehicle", "trailer", "dvirId", "defectSafetyStatus",
                                          "defectPhotos", "updatedAtTime"]
    /// Keys whose oversized value is a reason to reject, not an unknown key to ignore.
    static let knownKeys: Set<String> = {
        var all = Set<String>()
        for s in [SamsaraShape.vehicle, .vehicleStats, .dvir, .defect, .driver, .hosDailyLog, .trip, .idlingEvent, .idlingReport, .fuelEnergy, .ifta, .hosLogs,
                  .assetLocation] {
            all.formUnion(s.known)
        }
        return all
    }()
}
