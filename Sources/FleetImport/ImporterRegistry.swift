import Foundation

/// Every importer FleetKit has. A hand-written list: clearer than discovery for a dozen formats,
/// and the nightly job and `fleetkit formats` pick up a new entry without further changes.
public enum ImporterRegistry {
    public static let all: [any Importer.Type] = [
        AssetsImporter.self,
        DriversImporter.self,
        AssignmentsImporter.self,
        MaintenanceImporter.self,
        ServiceSchedulesImporter.self,
        ExpensesImporter.self,
        FuelCardImporter.self,
        FuelDispenseImporter.self,
        FuelDeliveryImporter.self,
        DVIRImporter.self,
        GPXImporter.self,
        ELM327Importer.self,
        TorqueImporter.self,
        CarScannerImporter.self,
        OBDCSVImporter.self,
        FreematicsImporter.self,
        PythonOBDImporter.self,
        ISO15143Importer.self,
        AEMP12Importer.self,
        SamsaraImporter.self,
        GeotabImporter.self,
        MotiveImporter.self,
        TraccarImporter.self,
        DeereImporter.self,
        ReceiptImporter.self,
        FxRatesImporter.self,
    ]

    public static func named(_ format: String) -> (any Importer.Type)? {
        all.first { $0.format == format.lowercased() }
    }

    /// The importer most confident about the file, or nil when none recognises it. Ties go to the
    /// earlier entry, so detection is deterministic.
    public static func detect(_ head: Data, filename: String, among importers: [any Importer.Type] = all) -> (any Importer.Type)? {
        var best: (any Importer.Type)? = nil
        var bestConfidence = Confidence.no
        for importer in importers {
            let c = importer.sniff(head, filename: filename)
            if c > bestConfidence { best = importer; bestConfidence = c }
        }
        return best
    }
}
