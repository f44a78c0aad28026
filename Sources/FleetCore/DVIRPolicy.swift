/// Which days a DVIR is required on (docs/METRICS.md, "DVIR compliance"): every day an asset
/// operated, or only days with a defect. A warehouse setting (`WarehouseSettings`) that reports
/// read, so it lives below both.
public enum DVIRPolicy: String, Sendable, CaseIterable, Codable {
    case everyDay = "every_day", defectsOnly = "defects_only"
}
