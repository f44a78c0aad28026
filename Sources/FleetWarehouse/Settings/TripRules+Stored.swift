import Foundation
import FleetCore

/// Trip rules as the warehouse stores them (the `trip_rules` setting) and as `fleetkit init
/// --trip-rule KEY=VALUE` and the nightly config's `trips:` block give them.
///
/// Everything here works from the rules' Codable keys, never a list of fields: a rule added to
/// `TripRules` (one property, one coding key) is stored, checked, shown and settable with no
/// other change.
extension TripRules {
    /// Every rule's key, as stored.
    public static var keys: [String] { (try? TripRules().storedObject().keys.sorted()) ?? [] }

    /// The stored form: one JSON object, keys sorted, so equal rules are equal text.
    public func storedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The rules as a key → number (or flag) object.
    func storedObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(try storedText().utf8)) as? [String: Any] else { return [:] }
        return object
    }

    /// A rule that cannot be meant: not a finite number, negative (every rule is a distance, a
    /// duration or a speed), or beyond its unit's limit (`RuleBounds`). nil when all are usable.
    public func problem() -> String? {
        let object: [String: Any]
        do { object = try storedObject() } catch { return "a rule is not a finite number" }
        for key in object.keys.sorted() {
            guard let n = object[key] as? NSNumber, !(object[key] is Bool) else { continue }
            if let problem = RuleBounds.problem(key: key, value: n.doubleValue) { return problem }
        }
        return nil
    }

    /// Reads the stored text. Unknown keys, values of the wrong type and impossible values are
    /// errors; a key absent from the text keeps its documented default (a rule added after the
    /// warehouse stored its rules).
    public static func stored(_ text: String) throws -> TripRules {
        func bad(_ reason: String) -> WarehouseSettingsError {
            WarehouseSettingsError(key: WarehouseSettings.Key.tripRules.rawValue, value: text, reason: reason,
                                   hint: "Set the rules again with `fleetkit init --reset-trip-rules` (the documented defaults) and `--trip-rule KEY=VALUE`.")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw bad("is not a JSON object of trip rules")
        }
        let known = Set(keys)
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw bad("names the unknown rule '\(unknown)' (known: \(keys.joined(separator: ", ")))")
        }
        let rules: TripRules
        do { rules = try JSONDecoder().decode(TripRules.self, from: Data(text.utf8)) } catch {
            throw bad("holds a value of the wrong type (\(error))")
        }
        if let problem = rules.problem() { throw bad("is not usable: \(problem)") }
        return rules
    }

    /// These rules with `KEY=VALUE` assignments applied (`fleetkit init --trip-rule`): true or
    /// false for a flag, else a number, 0 or more; decoding then checks it is the rule's type.
    public func setting(_ assignments: [String]) throws -> TripRules {
        var object = try storedObject()
        for assignment in assignments {
            func bad(_ hint: String) -> FleetError { .invalidArgument(name: "trip rule", value: assignment, hint: hint) }
            let parts = assignment.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, object[parts[0]] != nil else { throw bad("give KEY=VALUE, KEY one of \(Self.keys.joined(separator: ", "))") }
            if let flag = Bool(parts[1]) {
                object[parts[0]] = flag
            } else if let number = Double(parts[1]), number.isFinite, number >= 0 {
                object[parts[0]] = number
            } else {
                throw bad("the value is a number, 0 or more (or true/false for a flag)")
            }
            do { _ = try JSONDecoder().decode(TripRules.self, from: try JSONSerialization.data(withJSONObject: object)) } catch {
                throw bad("\(parts[0]) does not take '\(parts[1])'")
            }
            if let n = object[parts[0]] as? Double, let problem = RuleBounds.problem(key: parts[0], value: n) { throw bad(problem) }
        }
        return try JSONDecoder().decode(TripRules.self, from: try JSONSerialization.data(withJSONObject: object))
    }
}

extension TripRules {
    /// `key value, …` in key order, for `init` and `status`.
    public var summary: String {
        guard let object = try? storedObject() else { return "?" }
        return object.keys.sorted().map { key in
            let v = object[key]
            if let n = v as? NSNumber, let d = Double(exactly: n.doubleValue) { return "\(key) \(d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d))" }
            return "\(key) \(v.map { "\($0)" } ?? "")"
        }.joined(separator: ", ")
    }
}
