/// Identifiers are keys: an asset or a driver is found again by them in every later file. A key
/// holding a control character (`ControlText`) is refused as a `bad_identifier` row, in every
/// importer, because identity resolution checks every ref it is given (IdentityResolver and the
/// warehouse sink's drivers). Why: a NUL was stored as 3 bytes through one SQLite binding and 8
/// through another, so the same unit became two assets; an ESC or a bidi override makes a key
/// that prints like another one.
///
/// Hints (names, make, model) are not keys and are not refused; the command line escapes them
/// when it prints them.
public enum IdentifierCheck {
    /// The row error for the first identifier in `fields` holding a control character, else nil.
    public static func problem(_ fields: [(label: String, value: String?)]) -> RowError? {
        for (label, value) in fields {
            guard let value, let c = ControlText.firstControl(in: value) else { continue }
            return RowError(.badIdentifier, "the \(ControlText.escaped(label)) '\(ControlText.escaped(value))' holds the control character \(ControlText.name(c)); "
                            + "an identifier with control characters would be a second, invisible key, so the row is refused. Correct the value where the file was exported and import it again")
        }
        return nil
    }
}

extension AssetRef {
    /// A `bad_identifier` row error when the VIN, PIN, unit number or a vendor id (its source,
    /// type or value) holds a control character; nil when the ref is clean.
    public var identifierProblem: RowError? {
        var fields: [(label: String, value: String?)] = [("VIN", vin), ("PIN", pin), ("unit number", unitNumber)]
        for i in identifiers {
            fields.append(("vendor id source", i.source))
            fields.append(("vendor id type", i.type))
            fields.append(("\(i.source) \(i.type)", i.value))
        }
        return IdentifierCheck.problem(fields)
    }
}

extension DriverRef {
    /// A `bad_identifier` row error when the employee id, licence number or a vendor id holds a
    /// control character; nil when the ref is clean.
    public var identifierProblem: RowError? {
        var fields: [(label: String, value: String?)] = [("employee id", employeeID), ("licence number", licenseNumber)]
        for i in identifiers {
            fields.append(("vendor id source", i.source))
            fields.append(("vendor id type", i.type))
            fields.append(("\(i.source) \(i.type)", i.value))
        }
        return IdentifierCheck.problem(fields)
    }
}
