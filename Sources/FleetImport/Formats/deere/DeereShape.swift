import Foundation

/// What kind of record an element of `values[]` is: by its `@type` when Deere sends one, else by
/// the keys it has (saves made with other `Accept` headers, or trimmed by hand, drop `@type`).
enum DeereShape: String, CaseIterable {
    case engineHours, hoursOfOperation, location, breadcrumb, alert, deviceState, equipment, machine, unknown

    var label: String {
        switch self {
        case .engineHours: return "engine hours readings"
        case .hoursOfOperation: return "hours-of-operation intervals"
        case .location: return "location history points"
        case .breadcrumb: return "breadcrumbs"
        case .alert: return "alerts"
        case .deviceState: return "device state reports"
        case .equipment: return "equipment"
        case .machine: return "machines"
        case .unknown: return "unrecognised records"
        }
    }

    /// Equipment and machine lists name their machine; the machine endpoints' records do not.
    var namesItsMachine: Bool { self == .equipment || self == .machine }

    /// `@type` values seen in Deere payloads and documentation, by shape.
    static let types: [String: DeereShape] = [
        "EngineHours": .engineHours, "EngineHour": .engineHours, "MachineEngineHours": .engineHours,
        "HoursOfOperation": .hoursOfOperation, "MachineHoursOfOperation": .hoursOfOperation,
        "LocationHistory": .location, "MachineLocation": .location, "Location": .location,
        "Breadcrumb": .breadcrumb, "MachineBreadcrumb": .breadcrumb,
        "DiagnosticTroubleCodeAlert": .alert, "Alert": .alert, "MachineAlert": .alert,
        "DeviceStateReport": .deviceState,
        "Equipment": .equipment, "Machine": .machine,
    ]

    static func classify(_ node: JSONNode) -> DeereShape {
        if case let .string(t)? = node["@type"], let shape = types[t] { return shape }
        func has(_ keys: String...) -> Bool { keys.contains { node[$0] != nil } }
        if has("reading"), has("reportTime") { return .engineHours }
        if has("engineState"), has("startDate") { return .hoursOfOperation }
        if has("definition") || has("suspectParameterName") { return .alert }
        if has("point") {
            if has("speed", "heading", "fuelLevel", "machineState", "origin", "createTimestamp", "correlationId") { return .breadcrumb }
            return .location
        }
        if has("terminal", "terminalState", "reportState") { return .deviceState }
        if has("principalId", "ERID") { return .equipment }
        if has("equipmentMake", "equipmentModel", "equipmentType") || has("vin") && has("id") { return .machine }
        return .unknown
    }

    /// Every key a record of this shape may have; others are counted as unknown, not fatal.
    var known: Set<String> {
        switch self {
        case .engineHours: return ["@type", "reading", "reportTime", "source", "links"]
        case .hoursOfOperation: return ["@type", "startDate", "endDate", "engineState", "detailedState", "links"]
        case .location: return ["@type", "point", "eventTimestamp", "gpsFixTimestamp", "links"]
        case .breadcrumb: return ["@type", "point", "eventTimestamp", "createTimestamp", "speed", "heading", "fuelLevel", "machineState", "origin",
                                  "correlationId", "links"]
        case .alert: return ["@type", "id", "time", "location", "color", "severity", "acknowledgementStatus", "ignored", "invisible", "duration",
                             "occurrences", "engineHours", "machineLinearTime", "bus", "definition", "links", "type"]
        case .deviceState: return ["@type", "terminal", "terminalState", "reportState", "engineState", "location", "time", "reportTime", "links", "id"]
        case .equipment: return ["@type", "id", "principalId", "ERID", "name", "serialNumber", "engineSerialNumber", "modelYear", "make", "type", "model",
                                 "alternateIdentifiers", "telematicsCapable", "devices", "organizationRole", "archived", "links", "isSerialNumberCertified",
                                 "organizationId", "lastModifiedTime", "createdTime"]
        case .machine: return ["@type", "id", "name", "vin", "equipmentMake", "equipmentType", "equipmentModel", "equipmentApexType", "modelYear",
                               "telematicsState", "GUID", "links", "visualizationCategory", "productKey", "engineSerialNumber"]
        case .unknown: return []
        }
    }
}
