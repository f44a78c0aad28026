import Foundation
import FleetCore
import FleetWarehouse

/// ISO 15143-3 (AEMP 2.0) telematics: fleet snapshots (`/Fleet/{page}`), single-machine
/// snapshots and time-series pages (`/Fleet/Equipment/{PIN}/{DataElement}/…`), as XML or JSON.
///
/// One parser serves every OEM feed built on the standard (JDLink, KOMTRAX, CAT, Takeuchi,
/// Trackunit, Bosch, Samsara's equipment feed): it matches local element names under the ISO
/// namespace, the JCMA namespace or none, and reads each element at its own `datetime`.
/// Streaming: XML through `XMLElementDriver` on the byte tokenizer, JSON through a pull parser, so memory is
/// bounded by one element. docs/FORMATS.md lists what goes where.
public struct ISO15143Importer: Importer {
    public static let format = "iso15143"
    public static let summary = "ISO 15143-3 (AEMP 2.0) fleet snapshots and time-series pages, XML or JSON (JDLink, KOMTRAX, CAT, Takeuchi, Trackunit, Samsara equipment)"
    public static let example = "jdlink-fleet-2026-10-01.xml"

    static let namespaces = ["standards.iso.org/iso/15143", "jcmanet.or.jp"]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let hinted = ["iso15143", "iso-15143", "aemp", "jdlink", "komtrax"].contains { filename.lowercased().contains($0) }
        if ISOFeed.isJSON(head) {
            let text = String(decoding: head, as: UTF8.self)
            if text.contains("\"EquipmentHeader\"") || text.contains("\"Fleet\"") && text.contains("\"Equipment\"") { return Confidence(95) }
            if text.contains("\"Equipment\"") && (text.contains("\"links\"") || text.contains("\"Links\"")) { return Confidence(hinted ? 70 : 50) }
            if isBareTimeSeriesPage(text) { return Confidence(text.contains("/Fleet/Equipment/") || hinted ? 80 : 60) }
            // Nothing else in FleetKit reads a bare `[]`; it is what paging APIs return past the
            // last page, and it is imported as a page with no data (a note), not refused.
            if ISOFeed.isEmptyArray(head) { return Confidence(20) }
            return .no
        }
        guard let (root, tag) = ISOFeed.rootTag(head) else { return .no }
        if AEMP12Importer.isVersion12(tag) { return Confidence(30) }
        let namespaced = namespaces.contains { tag.contains($0) }
        let text = String(decoding: head, as: UTF8.self)
        switch root {
        case "Fleet": return namespaced ? .certain : Confidence(80)
        case "Equipment": return text.contains("EquipmentHeader") ? Confidence(80) : Confidence(hinted ? 50 : 0)
        default:
            guard root.hasSuffix("Messages") else { return namespaced ? .high : .no }
            return namespaced || text.contains("EquipmentHeader") ? Confidence(85) : Confidence(hinted ? 60 : 40)
        }
    }

    /// Data elements a time-series page is keyed by, in the standard's spelling (vendors'
    /// JSON keeps it): `CumulativeOperatingHours` and the rest, and the plural path names.
    static let seriesKeys: [String] = ["Location", "Locations", "CumulativeOperatingHours", "CumulativeIdleHours", "FuelUsed", "CumulativeFuelUsed",
                                       "FuelRemaining", "FuelRemainingRatio", "DEFRemaining", "Distance", "EngineStatus", "EngineCondition",
                                       "FaultCode", "FaultCodes", "CautionCode", "CautionCodes", "DiagnosticTroubleCode", "DiagnosticTroubleCodes"]
        .map { "\"\($0)\"" }

    /// A time-series page without `EquipmentHeader` (Bosch's `{"CumulativeOperatingHours":
    /// [{"Hour":…, "datetime":…}], "links": […]}`, alone or in an array): a data element's name
    /// as a key, and items that carry a `datetime`. The machine is then named by the page's
    /// `self` link, `--asset` or the folder.
    static func isBareTimeSeriesPage(_ text: String) -> Bool {
        (text.contains("\"datetime\"") || text.contains("\"dateTime\"")) && seriesKeys.contains { text.contains($0) }
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try ISOFeed.read(input, into: &sink)
    }
}
