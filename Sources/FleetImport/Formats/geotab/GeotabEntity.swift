import Foundation

/// What a MyGeotab entity is, told by its members: responses carry no type name, and a script
/// may save several `Get` calls into one list.
enum GeotabEntity: String, CaseIterable {
    case device = "Device", statusData = "StatusData", faultData = "FaultData", logRecord = "LogRecord"
    case deviceStatusInfo = "DeviceStatusInfo", trip = "Trip", exceptionEvent = "ExceptionEvent", fuelTransaction = "FuelTransaction"
    case unknown

    static func classify(_ node: JSONNode) -> GeotabEntity {
        func has(_ keys: String...) -> Bool { keys.contains { node[$0] != nil } }
        if has("diagnostic") {
            if has("faultState", "failureMode", "malfunctionLamp", "amberWarningLamp", "redStopLamp", "protectWarningLamp", "controller", "faultLampState") {
                return .faultData
            }
            if has("data") { return .statusData }
        }
        if has("rule"), has("activeFrom") { return .exceptionEvent }
        if has("nextTripStart", "drivingDuration", "stopDuration") || (has("start") && has("stop") && has("distance")) { return .trip }
        if has("volume", "cardNumber", "providerProductDescription", "productType") && has("dateTime") { return .fuelTransaction }
        if has("isDeviceCommunicating", "currentStateDuration", "isDriving") { return .deviceStatusInfo }
        if has("latitude"), has("longitude"), has("dateTime"), has("device") { return .logRecord }
        if has("serialNumber", "vehicleIdentificationNumber", "deviceType", "productId") || (has("id") && has("name") && has("activeFrom")) {
            return .device
        }
        return .unknown
    }

    /// The members each entity may have; others are counted in the unknown-key note.
    var known: Set<String> {
        switch self {
        case .device: return ["id", "name", "serialNumber", "vehicleIdentificationNumber", "licensePlate", "licenseState", "deviceType", "productId",
                              "activeFrom", "activeTo", "comment", "groups", "timeZoneId", "workTime", "hardwareId", "engineType", "engineVehicleIdentificationNumber",
                              "odometerAdjustment", "engineHourOffset", "version", "deviceFlags", "customProperties", "autoGroups", "devicePlans",
                              "devicePlanBillingInfo", "maxSecondsBetweenLogs", "speedingOn", "speedingOff", "isSpeedIndicator", "minAccidentSpeed",
                              "ignoreDownloadsUntil", "disableBuzzer", "enableSpeedWarning", "timeToDownload", "major", "minor", "parameterVersion",
                              "vehicleIdentificationNumberSource", "externalDeviceShutDownDelay", "pinDevice", "obdAlertEnabled", "goTalkLanguage"]
        case .statusData: return ["id", "dateTime", "device", "diagnostic", "data", "version", "controller"]
        case .faultData: return ["id", "dateTime", "device", "diagnostic", "controller", "count", "failureMode", "faultState", "malfunctionLamp",
                                 "amberWarningLamp", "redStopLamp", "protectWarningLamp", "dismissDateTime", "dismissUser", "faultLampState",
                                 "flashCode", "classCode", "sourceAddress", "severity", "version", "faultDescription", "effectOnComponent",
                                 "recommendation", "riskOfBreakdown", "symptom", "faultStates"]
        case .logRecord: return ["id", "dateTime", "device", "latitude", "longitude", "speed", "version"]
        case .deviceStatusInfo: return ["dateTime", "device", "driver", "groups", "bearing", "currentStateDuration", "exceptionEvents",
                                        "isDeviceCommunicating", "isDriving", "latitude", "longitude", "speed", "id", "isHistoricLastDriver"]
        case .trip: return ["id", "device", "driver", "start", "stop", "distance", "drivingDuration", "idlingDuration", "stopDuration", "nextTripStart",
                            "maximumSpeed", "averageSpeed", "stopPoint", "isSeatBeltOff", "afterHoursDistance", "afterHoursDrivingDuration",
                            "afterHoursEnd", "afterHoursStart", "afterHoursStopDuration", "workDistance", "workDrivingDuration", "workStopDuration",
                            "speedRange1", "speedRange1Duration", "speedRange2", "speedRange2Duration", "speedRange3", "speedRange3Duration",
                            "engineHours", "version", "dateTime"]
        case .fuelTransaction: return ["id", "dateTime", "device", "driver", "deviceByDriver", "volume", "cost", "currencyCode", "cardNumber", "comments",
                                        "description", "driverName", "externalReference", "licencePlate", "location", "odometer", "productType",
                                        "provider", "providerProductDescription", "serialNumber", "siteName", "sourceData",
                                        "vehicleIdentificationNumber", "version", "confidence", "deletedDateTime"]
        case .exceptionEvent, .unknown: return []
        }
    }
}
