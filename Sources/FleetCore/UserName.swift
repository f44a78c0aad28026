import Foundation

/// Who runs a command, for the ledgers that record who changed the warehouse (closing a month,
/// a restatement, a forgotten file): the login name, as the environment gives it.
public enum UserName {
    public static var current: String {
        let env = ProcessInfo.processInfo.environment
        for key in ["FLEETKIT_USER", "USER", "LOGNAME"] {
            if let v = env[key], !v.isEmpty { return String(v.prefix(64)) }
        }
        return "uid \(getuid())"
    }
}
