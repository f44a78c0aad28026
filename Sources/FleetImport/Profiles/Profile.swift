import Foundation
import FleetCore

/// A mapping profile: how one spreadsheet or CSV layout's columns become one kind of FleetKit
/// record (docs/FORMATS.md, "Mapping profiles"). Read and checked by `ProfileFile`; a profile
/// that exists is valid: every field is known to its target, every unit fits its field, its
/// date pattern reads one date only.
public struct Profile: Sendable {
    /// One mapped column: the header text as the file writes it, the target field, its unit.
    public struct Column: Sendable {
        public var header: String
        public var field: String
        public var kind: ProfileTarget.Kind
        public var unit: ProfileUnit?
        /// The profile line that maps it, for a file that lacks the column.
        public var line: Int
        /// A value every row has (`constants:`): the column is not in the file but added to each
        /// row under `header` (`constant:<field>`), so it is read as a file's cell would be.
        public var constant: String? = nil
    }

    public var name: String
    public var version: Int?
    public var target: ProfileTarget
    public var columns: [Column]
    /// Header texts a file must have for the profile to match it; the mapped columns by default.
    public var signature: [String]
    public var dateFormat: ProfileDateFormat?
    public var timeFormat: ProfileDateFormat?
    /// The zone local times are in; nil for the warehouse's.
    public var zone: FleetZone?
    public var decimalMark: Character
    /// nil: no grouping mark (a value with one is refused).
    public var groupingMark: Character?
    public var encoding: Encoding
    public var citation: String?
    /// Records before the header row (a report's title and filter lines), not read.
    public var preamble: Int = 0
    /// Patterns (`*` any text that does not split a word, case aside) of a cell that makes its
    /// row no data: a totals or footer row. Such rows are skipped and counted in a note, never
    /// rejected or loaded.
    public var skipRows: [String] = []
    /// The file it was read from, or `shipped:<name>` for the profiles FleetKit ships.
    public var path: String
    /// Line numbers of the top-level keys, for problems found against a file.
    public var lines: [String: Int]

    public enum Encoding: String, Sendable {
        case utf8 = "UTF-8", utf16 = "UTF-16"
    }

    /// What `source_file.format` records for a file imported with it: the profile and its version.
    public var formatName: String { "profile:\(name)" + (version.map { "@\($0)" } ?? "") }

    public func column(for field: String) -> Column? { columns.first { $0.field == field } }

    /// The constants as (header, value) cells each row gains.
    public var constants: [(header: String, value: String)] { columns.compactMap { c in c.constant.map { (c.header, $0) } } }

    /// Whether a row is a footer, totals or other non-data row by `skipRows`.
    public func skips(_ fields: [String]) -> Bool {
        !skipRows.isEmpty && fields.contains { cell in
            let t = cell.trimmingCharacters(in: .whitespaces)
            return !t.isEmpty && skipRows.contains { Self.glob($0, matches: t) }
        }
    }

    /// `*` matches any run of characters that does not split a word; the rest compares case
    /// aside. Beside a letter or digit of the pattern, `*` stands only for nothing or for text
    /// that meets that letter at a word boundary: `Total*` matches `Total`, `Total:` and
    /// `Total (USD) 1,359.05`, never `TotalEnergies`, `Totalfina 3` or `Totals`; `*total` matches
    /// `Grand total`, never `Subtotal`. A data cell that merely starts with the word's letters is
    /// no totals row. Linear in the text for each pattern (a table of positions, no
    /// backtracking), and cells are cut to 200 characters: no cell makes it slow.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let p = Array(pattern.lowercased()), t = Array(text.lowercased().prefix(200))
        func word(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        var row = [Bool](repeating: false, count: t.count + 1)
        row[0] = true
        for (k, c) in p.enumerated() {
            var next = [Bool](repeating: false, count: t.count + 1)
            if c == "*" {
                // Text t[i..<j] taken by this `*` must not continue the word before it nor run
                // into the word after it.
                let after = k > 0 && word(p[k - 1]), before = k + 1 < p.count && word(p[k + 1])
                var any = false
                for j in 0...t.count {
                    next[j] = row[j] || (any && (!before || !word(t[j - 1])))
                    if j < t.count, row[j], !after || !word(t[j]) { any = true }
                }
            } else {
                for j in 0..<t.count where row[j] && t[j] == c { next[j + 1] = true }
            }
            row = next
        }
        return row[t.count]
    }

    /// Whether a header (as a file's first record) has every signature column, compared as
    /// `CSVHeader` compares names (case, spaces, `-` and `_` aside).
    public func matches(header fields: [String]) -> Bool {
        let present = Set(fields.map(CSVHeader.normalise))
        return !signature.isEmpty && signature.allSatisfy { present.contains(CSVHeader.normalise($0)) }
    }

    /// The first mapped column the header lacks, as a problem at the profile line that maps it.
    public func missingColumn(in fields: [String]) -> ProfileError? {
        let present = Set(fields.map(CSVHeader.normalise))
        guard let c = columns.first(where: { $0.constant == nil && !present.contains(CSVHeader.normalise($0.header)) }) else { return nil }
        let shown = fields.prefix(12).map { "'\(QuotedText.cut($0, limit: 40))'" }.joined(separator: ", ") + (fields.count > 12 ? ", …" : "")
        return ProfileError(path: path, line: c.line,
                            problem: ProfileProblem("column '\(c.header)' (mapped to \(c.field)) is not in the file's header (\(shown))",
                                                    fix: "write the column name exactly as the file's header has it, or remove this mapping"))
    }
}

/// A profile refused: the profile file, the line, what is wrong and the fix.
public struct ProfileError: Error, Sendable, CustomStringConvertible, Equatable {
    public var path: String
    public var line: Int
    public var problem: ProfileProblem

    public init(path: String, line: Int, problem: ProfileProblem) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    public var description: String { "\(path):\(line): \(problem.message); fix: \(problem.fix)" }
}
