import Foundation
import FleetCore
import FleetWarehouse

/// John Deere Operations Center API responses (JSON) as a nightly job saves them: one page
/// (`{"links": […], "total": n, "values": […]}`) or a JSON array of pages.
///
/// Shapes: engine hours, hours of operation, location history, breadcrumbs and alerts of the
/// machine endpoints (`/machines/{principalId}/…`, the machine named by the page's `self`
/// link), and the equipment list and Operations Center machine list, which link `principalId`,
/// equipment `id`, `ERID` and `serialNumber` (the PIN) to one asset: the same machine the
/// JDLink ISO 15143-3 feed names by PIN. The handlers live in `Deere/`; docs/FORMATS.md lists
/// every field read and where it goes.
///
/// Streaming: `values[]` is read one record at a time (`JSONPullParser`), so memory is bounded
/// by one record. A record that cannot be used is rejected with its JSON path
/// (`values[12].point.lat`) and raw text; unknown keys are ignored and counted in one note;
/// JSON that is not well formed, truncated included, fails the whole file and leaves nothing.
public struct DeereImporter: Importer {
    public static let format = "deere"
    public static let summary = "John Deere Operations Center responses (JSON, one page or an array of pages): engine hours, hours of operation, location history, breadcrumbs, DTC alerts, equipment and machine lists"
    public static let example = "deere/engine-hours-1234567.json"

    /// `@type` values, keys and link hosts that only Operations Center responses have.
    static let markers = ["\"valueAsDouble\"", "\"valueAsInteger\"", "\"measurementAsDouble\"", "\"gpsFixTimestamp\"", "\"reportTime\"",
                          "\"principalId\"", "\"ERID\"", "\"suspectParameterName\"", "\"failureModeIndicator\"", "\"threeLetterAcronym\"",
                          "\"km1hr-1\"", "\"prcnt\"", "\"nextPage\"", "\"BREADCRUMB\"", "\"detailedState\"", "\"eventTimestamp\"",
                          "\"EngineHours\"", "\"HoursOfOperation\"", "\"LocationHistory\"", "\"Breadcrumb\"", "\"DiagnosticTroubleCodeAlert\"",
                          "\"Machine\"", "\"equipmentMake\"", "\"TelematicsGateway\"", "\"alternateIdentifiers\"", "\"DeviceStateReport\"",
                          "deere.com/platform/", "equipmentapi.deere.com"]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let first = head.first(where: { ![0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return .no }
        let text = String(decoding: head, as: UTF8.self)
        // Samsara pages and ISO 15143-3 JSON have their own importers.
        if text.contains("\"EquipmentHeader\"") || text.contains("\"pagination\"") && text.contains("\"data\"") { return .no }
        let named = ["deere", "opscenter", "ops-center", "operations-center"].contains { filename.lowercased().contains($0) }
        let paged = text.contains("\"values\"")
        let linked = text.contains("\"rel\"") && (text.contains("\"uri\"") || text.contains("\"href\""))
        let hits = markers.filter { text.contains($0) }.count
        if paged, hits >= 2 { return Confidence(linked || named ? 95 : 90) }
        if paged, hits == 1 { return Confidence(named || linked ? 85 : 60) }
        if paged, linked, named { return Confidence(60) }
        return named && paged ? Confidence(40) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try Self.read(input, &sink)
    }

    private static func read<S: RecordSink>(_ input: InputFile, _ sink: inout S) throws {
        try SavedResponse.reading(input, response: "an Operations Center response") { try DeereReader<S>(input).run(into: &sink) }
    }
}
