import Foundation
import FleetCore
import FleetWarehouse

/// AEMP 1.2, the legacy telematics standard that ISO 15143-3 replaced: `<Fleet version="1.2"
/// xmlns="http://schemas.aemp.org/fleet">` from GPS Insight, Deere's legacy `/aemp` feed and
/// Trackunit's classic feed.
///
/// The structure is the ISO one with older spellings: `Make` instead of `OEMName`, no `PIN`
/// (the machine is its make, model and serial number, or the VIN in `EquipmentID`), hour
/// meters as xs:duration (`P13DT0H25M59.999S`), `Altitude/Meters`, and odometers in miles. It
/// is read by the same streaming parser and mapping as `iso15143`.
public struct AEMP12Importer: Importer {
    public static let format = "aemp12"
    public static let summary = "AEMP 1.2 fleet snapshots, XML (GPS Insight, Deere legacy /aemp, Trackunit classic): hours as xs:duration, miles"
    public static let example = "aemp12-fleet-2026-10-01.xml"

    public init() {}

    /// The AEMP 1.2 namespace or `version="1.2"` on the root.
    static func isVersion12(_ rootTag: String) -> Bool {
        rootTag.contains("schemas.aemp.org") || rootTag.range(of: #"version\s*=\s*["']1\.2["']"#, options: .regularExpression) != nil
    }

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard !ISOFeed.isJSON(head), let (root, tag) = ISOFeed.rootTag(head), root == "Fleet" else { return .no }
        if isVersion12(tag) { return .certain }
        // Deere's legacy feed: a plain <Fleet version="1"> that says Make and has no PIN.
        let text = String(decoding: head, as: UTF8.self)
        let namespaced = ISO15143Importer.namespaces.contains { tag.contains($0) }
        if !namespaced, text.contains("<Make>"), !text.contains("<OEMName>"), !text.contains("<PIN>") { return Confidence(85) }
        return .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try ISOFeed.read(input, into: &sink)
    }
}
