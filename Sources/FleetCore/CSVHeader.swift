import Foundation

/// Maps the header row of an imported file to the columns an importer knows. Real exports
/// spell the same column many ways ("Unit #", "unit_number", "Vehicle"), so matching is on a
/// normalised form and through per-column aliases.
public struct CSVHeader: Sendable {
    /// Column index by canonical name exactly as declared, -1 when declared but absent; this
    /// keeps `value(_:in:)`, called for every field of every row, free of normalisation.
    private let byCanonical: [String: Int]
    /// Column index by normalised canonical name, for callers spelling the name differently.
    private let byNormalised: [String: Int]
    public let unknown: [String]
    public let duplicates: [String]

    /// `aliases` maps a canonical column name to its accepted spellings (canonical name included
    /// implicitly). When spellings clash, a canonical name beats another column's alias, and
    /// otherwise the canonical name first in sorted order wins, so the outcome never depends on
    /// dictionary order. Blank header fields (trailing delimiters are common in spreadsheet
    /// exports) are neither matched nor reported as unknown.
    public init(_ fields: [String], aliases: [String: [String]]) {
        let canonicals = aliases.keys.sorted()
        var lookup: [String: String] = [:]
        // Each spelling normalised once: every file is sniffed by every CSV format, so this runs
        // for every file a folder import meets, photos included.
        for name in canonicals { let k = Self.normalise(name); lookup[k] = lookup[k] ?? name }
        for name in canonicals {
            for alias in aliases[name] ?? [] {
                let k = Self.normalise(alias)
                if !k.isEmpty, lookup[k] == nil { lookup[k] = name }
            }
        }
        var byCanonical = Dictionary(uniqueKeysWithValues: canonicals.map { ($0, -1) })
        var unknown: [String] = [], duplicates: [String] = []
        for (index, field) in fields.enumerated() {
            let key = Self.normalise(field)
            guard !key.isEmpty, let name = lookup[key] else {
                if !field.trimmingCharacters(in: Self.blank).isEmpty { unknown.append(field) }
                continue
            }
            if byCanonical[name] == -1 {
                byCanonical[name] = index
            } else if !duplicates.contains(name) {
                duplicates.append(name)
            }
        }
        self.byCanonical = byCanonical
        var byNormalised: [String: Int] = [:]
        for (name, index) in byCanonical where index >= 0 { byNormalised[Self.normalise(name)] = index }
        self.byNormalised = byNormalised
        self.unknown = unknown
        self.duplicates = duplicates
    }

    private static let blank = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}"))

    /// Normalisation used for matching: lowercased, BOM/whitespace trimmed, and spaces, '_', '-',
    /// '.', '/', '(', ')', '#' removed. So "Unit Number", "unit_number" and "UNIT-NUMBER" all
    /// match "unitnumber". All whitespace is removed, not only spaces, because spreadsheets
    /// leave tabs and no-break spaces in headers.
    public static func normalise(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in name.lowercased().unicodeScalars {
            switch scalar {
            case " ", "_", "-", ".", "/", "(", ")", "#", "\u{FEFF}": continue
            default: if !scalar.properties.isWhitespace { out.append(scalar) }
            }
        }
        return String(out)
    }

    /// Column index of a canonical column, or nil. Any spelling with the same normalised form
    /// as the declared canonical name works.
    public func index(_ canonical: String) -> Int? {
        if let index = byCanonical[canonical] { return index >= 0 ? index : nil }
        return byNormalised[Self.normalise(canonical)]
    }

    /// The trimmed field of column `canonical`; nil if the column is absent, the record too
    /// short, or the field empty after trimming, so callers handle "missing" in one place.
    public func value(_ canonical: String, in record: CSVRecord) -> String? {
        guard let index = index(canonical), index < record.fields.count else { return nil }
        let field = record.fields[index]
        guard let first = field.unicodeScalars.first, let last = field.unicodeScalars.last else { return nil }
        if !first.properties.isWhitespace && !last.properties.isWhitespace { return field }
        let trimmed = field.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
