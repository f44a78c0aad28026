/// Vehicle and machine identification numbers.
///
/// Identity resolution trusts a VIN or PIN above every other identifier, so the rules for what
/// counts as one are strict: trimmed, upper-cased, and for a VIN exactly 17 characters without
/// I, O or Q (ISO 3779). The check digit (position 9) is only mandatory in North America, so it
/// is checked only where a string must prove it is a VIN, such as an ISO 15143-3 `EquipmentID`.
public enum VIN {
    /// Trims and upper-cases; removes inner spaces and dashes that people type into spreadsheets.
    public static func normalise(_ text: String) -> String {
        String(text.uppercased().unicodeScalars.filter { !" -\t".unicodeScalars.contains($0) })
    }

    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        case length(Int)
        case forbiddenLetter(Character)
        case invalidCharacter(Character)

        public var description: String {
            switch self {
            case let .length(n): return "a VIN has 17 characters, this one has \(n)"
            case let .forbiddenLetter(c): return "a VIN never contains the letter \(c) (ISO 3779 excludes I, O and Q)"
            case let .invalidCharacter(c): return "a VIN has only letters and digits, not '\(c)'"
            }
        }
    }

    /// Returns why a normalised string is not a VIN, or nil when it is one.
    public static func problem(_ vin: String) -> Problem? {
        if vin.count != 17 { return .length(vin.count) }
        for c in vin {
            if c == "I" || c == "O" || c == "Q" { return .forbiddenLetter(c) }
            if !(c.isASCII && (c.isLetter || c.isNumber)) { return .invalidCharacter(c) }
        }
        return nil
    }

    public static func isValid(_ vin: String) -> Bool { problem(vin) == nil }

    /// The North American check digit (49 CFR 565.15): transliterate, weight, sum mod 11.
    public static func hasValidCheckDigit(_ vin: String) -> Bool {
        guard isValid(vin) else { return false }
        let weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
        var sum = 0
        for (i, c) in vin.enumerated() {
            guard let v = transliteration(c) else { return false }
            sum += v * weights[i]
        }
        let remainder = sum % 11
        let expected: Character = remainder == 10 ? "X" : Character(String(remainder))
        return vin[vin.index(vin.startIndex, offsetBy: 8)] == expected
    }

    public static func transliteration(_ c: Character) -> Int? {
        if let d = c.wholeNumberValue { return d }
        let table: [Character: Int] = [
            "A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6, "G": 7, "H": 8,
            "J": 1, "K": 2, "L": 3, "M": 4, "N": 5, "P": 7, "R": 9,
            "S": 2, "T": 3, "U": 4, "V": 5, "W": 6, "X": 7, "Y": 8, "Z": 9,
        ]
        return table[c]
    }
}

/// Product identification numbers of machines (ISO 10261 PINs, serial numbers). Less strict than
/// VINs: OEMs use 8 to 17 characters, but they are still trimmed and upper-cased to match.
public enum PIN {
    public static func normalise(_ text: String) -> String { VIN.normalise(text) }
}
