import Foundation
import FleetCore

/// A problem with one record of a JSON export (Samsara, Geotab, John Deere), located at the JSON path of the offending field, so a
/// reject says `data[3].gps[7].latitude`, not just "record 3".
struct JSONRowError: Error {
    var reason: Issue.Reason
    var message: String
    var path: String

    init(_ reason: Issue.Reason, _ message: String, at path: String) {
        self.reason = reason
        self.message = message
        self.path = path
    }
}

extension Issue.Reason {
    static let unknownShape: Issue.Reason = "unknown_shape"
    static let wrongType: Issue.Reason = "wrong_type"
    static let placeholder: Issue.Reason = "placeholder"
}
