import Foundation
import FleetCore
import FleetWarehouse

/// MyGeotab API responses as a nightly script saves them: the JSON-RPC body of a `Get`
/// (`{"result": [...]}`), of a `GetFeed` (`{"result": {"data": [...], "toVersion": "…"}}`), or
/// the bare list of entities.
///
/// Entities carry no type name: each is recognised by its members (`GeotabEntity.classify`).
/// Read: `Device` (identity), `StatusData` (the diagnostics with documented units become
/// meters), `FaultData` (J1939 and OBD-II codes become DTCs; Geotab's own GO-device
/// diagnostics are counted, never stored as engine codes), `LogRecord` and `DeviceStatusInfo`
/// (positions), `Trip` (vendor trips), `FuelTransaction` (card fuel purchases); `ExceptionEvent`
/// is checked and counted per rule, not stored. docs/FORMATS.md lists every member read and
/// where it goes.
///
/// Streaming: the result list is read one entity at a time (`JSONPullParser`); each entity is
/// loaded in its own savepoint and an unusable one is rejected with its JSON path and raw text.
/// JSON that is not well formed, truncated included, fails the whole file.
public struct GeotabImporter: Importer {
    public static let format = "geotab"
    public static let summary = "MyGeotab API responses (JSON-RPC Get/GetFeed result or a bare list): Device, StatusData meters, FaultData engine codes, LogRecord and DeviceStatusInfo positions, Trip, FuelTransaction card purchases"
    public static let example = "geotab/StatusData-2026-10-01.json"

    /// Member names only MyGeotab entities use, in the first 64 KiB.
    static let markers = ["\"diagnostic\"", "\"toVersion\"", "\"vehicleIdentificationNumber\"", "\"isDeviceCommunicating\"", "\"faultState\"",
                          "\"failureMode\"", "\"currentStateDuration\"", "\"deviceType\"", "\"productId\"", "\"nextTripStart\"",
                          "\"drivingDuration\"", "\"malfunctionLamp\"", "\"amberWarningLamp\"", "\"workTime\"", "\"activeFrom\""]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let named = filename.lowercased().contains("geotab")
        guard let first = head.first(where: { ![0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return .no }
        let text = String(decoding: head, as: UTF8.self)
        // Every Geotab entity names its device as `"device":{"id":…}` and its time as `dateTime`.
        let device = text.contains("\"device\":{\"id\"") || text.contains("\"device\": {\"id\"") || text.contains("\"device\": {\n")
        let hits = markers.filter { text.contains($0) }.count + (device ? 1 : 0) + (text.contains("\"dateTime\"") ? 1 : 0)
        let wrapped = text.contains("\"result\"")
        if wrapped, hits >= 2 { return named ? Confidence(95) : Confidence(90) }
        if hits >= 3 { return named ? Confidence(85) : Confidence(70) }
        if wrapped, hits == 1 { return named ? Confidence(80) : Confidence(55) }
        return named && hits > 0 ? Confidence(50) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try Self.read(input, &sink)
    }

    private static func read<S: RecordSink>(_ input: InputFile, _ sink: inout S) throws {
        try SavedResponse.reading(input, response: "a MyGeotab API response") { try GeotabReader<S>(input).run(into: &sink) }
    }
}
