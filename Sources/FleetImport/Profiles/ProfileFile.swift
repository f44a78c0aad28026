import Foundation
import Yams
import FleetCore

/// Reads a mapping profile from YAML and checks everything a profile can get wrong on its own,
/// each refusal naming its line and the fix (`ProfileError`): unknown keys, an unknown target
/// or field, a unit that does not fit its field (or none where one is needed), an ambiguous date
/// pattern, an unknown zone or encoding. What needs a file (a mapped column the file lacks) is
/// checked when the profile meets one (`Profile.missingColumn`).
///
/// The YAML is read as a node tree, not decoded, so that each value keeps its line; anchors,
/// aliases and merge keys are refused before parsing (`YAMLAliasCheck`), as in the nightly config.
public enum ProfileFile {
    /// The top-level keys, in the order docs/FORMATS.md lists them.
    public static let keys = ["name", "version", "target", "citation", "comment", "encoding", "decimal", "grouping",
                              "date_format", "time_format", "zone", "skip", "signature", "constants", "columns"]
    /// A profile is a page of YAML; 64 KiB is far more than any needs.
    static let maxBytes = 64 * 1024

    public static func load(_ path: String) throws -> Profile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ProfileError(path: path, line: 0, problem: ProfileProblem("the profile cannot be read (\(error.localizedDescription))", fix: "check the path and its permissions"))
        }
        guard data.count <= maxBytes else {
            throw ProfileError(path: path, line: 0, problem: ProfileProblem("the profile is \(data.count) bytes; a profile is a page of YAML", fix: "keep it under \(maxBytes) bytes"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProfileError(path: path, line: 0, problem: ProfileProblem("the profile is not UTF-8 text", fix: "save it as UTF-8"))
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> Profile {
        func fail(_ line: Int, _ message: String, _ fix: String) -> ProfileError {
            ProfileError(path: path, line: line, problem: ProfileProblem(message, fix: fix))
        }
        if let p = YAMLAliasCheck.firstProblem(text) {
            throw fail(p.line, "the profile has \(p.what)", "write each value where it is used; profiles take no YAML anchors, aliases or merge keys")
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch let e as YamlError {
            throw fail(Self.line(of: e), "not valid YAML (\(QuotedText.cut(String(describing: e), limit: 200)))", "correct the YAML syntax at that line")
        }
        guard let mapping = root?.mapping else {
            throw fail(1, "the profile is not a mapping of keys to values", "start from the example in docs/FORMATS.md, \"Mapping profiles\"")
        }
        var values: [String: Node] = [:], lines: [String: Int] = [:]
        for (k, v) in mapping {
            let line = k.mark?.line ?? 1
            guard let key = k.string, keys.contains(key) else {
                let name = k.string ?? "?"
                throw fail(line, "unknown key '\(QuotedText.cut(name, limit: 60))'",
                           (suggest(name, among: keys).map { "did you mean '\($0)'? " } ?? "") + "the keys are \(keys.joined(separator: ", "))")
            }
            values[key] = v
            lines[key] = line
        }
        func scalar(_ key: String) throws -> String? {
            guard let node = values[key] else { return nil }
            guard let s = node.scalar?.string else { throw fail(lines[key]!, "'\(key)' must be a single value", "write it on one line: \(key): VALUE") }
            return s
        }

        guard let name = try scalar("name") else { throw fail(1, "the profile has no name", "add a line: name: my-layout (letters, digits, - and _)") }
        guard !name.isEmpty, name.count <= 64, name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }) else {
            throw fail(lines["name"]!, "the name '\(QuotedText.cut(name, limit: 60))' is not a plain name", "use letters, digits, '-', '_' and '.', at most 64 characters")
        }
        var version: Int? = nil
        if let v = try scalar("version") {
            guard let n = Int(v), n >= 1 else { throw fail(lines["version"]!, "version '\(QuotedText.cut(v, limit: 40))' is not a whole number from 1", "write version: 1, and raise it whenever the mapping changes") }
            version = n
        }
        guard let targetText = try scalar("target") else {
            throw fail(1, "the profile has no target", "add target: with one of \(ProfileTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let target = ProfileTarget(rawValue: targetText) else {
            throw fail(lines["target"]!, "unknown target '\(QuotedText.cut(targetText, limit: 60))'", "use one of \(ProfileTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let citation = try scalar("citation") ?? scalar("comment")
        var encoding = Profile.Encoding.utf8
        if let e = try scalar("encoding") {
            switch e.uppercased().replacingOccurrences(of: "_", with: "-") {
            case "UTF-8", "UTF8": encoding = .utf8
            case "UTF-16", "UTF16", "UTF-16LE", "UTF-16BE": encoding = .utf16
            default: throw fail(lines["encoding"]!, "encoding '\(QuotedText.cut(e, limit: 40))' is not read", "save the file as UTF-8 or UTF-16 (with its byte order mark) and write that here; FleetKit never guesses an 8-bit code page")
            }
        }
        var decimal: Character = "."
        if let d = try scalar("decimal") {
            guard d == "." || d == "," else { throw fail(lines["decimal"]!, "decimal '\(d)' is not a decimal mark", "write decimal: \".\" or decimal: \",\"") }
            decimal = Character(d)
        }
        var grouping: Character? = decimal == "." ? "," : "."
        if let g = try scalar("grouping") {
            switch g {
            case "none", "": grouping = nil
            case ",", ".", " ", "'", "\u{00A0}", "\u{202F}": grouping = Character(g)
            default: throw fail(lines["grouping"]!, "grouping '\(g)' is not a grouping mark", "write grouping: \",\", \".\", \" \", \"'\" or none")
            }
            if grouping == decimal { throw fail(lines["grouping"]!, "the grouping mark is the decimal mark '\(decimal)'", "the two must differ: with decimal \"\(decimal)\" write grouping: \"\(decimal == "." ? "," : ".")\" or none") }
        }
        var zone: FleetZone? = nil
        if let z = try scalar("zone") {
            guard let fz = FleetZone(identifier: z) else { throw fail(lines["zone"]!, "zone '\(QuotedText.cut(z, limit: 60))' is not an IANA time zone", "write a name such as America/Chicago or UTC, or leave zone out for the warehouse's zone") }
            zone = fz
        }
        func pattern(_ key: String, dateRequired: Bool) throws -> ProfileDateFormat? {
            guard let p = try scalar(key) else { return nil }
            switch ProfileDateFormat.compile(p, dateRequired: dateRequired) {
            case let .success(f): return f
            case let .failure(problem): throw ProfileError(path: path, line: lines[key]!, problem: problem)
            }
        }
        let dateFormat = try pattern("date_format", dateRequired: true)
        let timeFormat = try pattern("time_format", dateRequired: false)
        if let t = timeFormat, !t.hasTime || t.hasDate {
            throw fail(lines["time_format"]!, "time_format '\(t.pattern)' is not a time of day", "write the clock only, e.g. HH:mm or hh:mm a; the date goes in date_format")
        }

        guard let columnsNode = values["columns"] else { throw fail(1, "the profile has no columns", "add columns: mapping each header to a field of \(target.rawValue)") }
        guard let columnMap = columnsNode.mapping else { throw fail(lines["columns"]!, "'columns' must map header texts to fields", "write one line per column: \"Header text\": field, or \"Header\": {field: volume, unit: gal}") }
        let fields = target.fields
        var columns: [Profile.Column] = []
        for (k, v) in columnMap {
            let line = k.mark?.line ?? lines["columns"]!
            guard let header = k.string, !header.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail(line, "a column has no header text", "write the header as the file has it, in quotes") }
            var fieldName: String?, unitText: String?, unitLine = line
            if let s = v.scalar?.string {
                fieldName = s
            } else if let m = v.mapping {
                for (mk, mv) in m {
                    let l = mk.mark?.line ?? line
                    switch mk.string {
                    case "field": fieldName = mv.scalar?.string
                    case "unit": unitText = mv.scalar?.string; unitLine = l
                    default: throw fail(l, "unknown key '\(QuotedText.cut(mk.string ?? "?", limit: 40))' in column '\(header)'", "a column takes field: and unit: only")
                    }
                }
            }
            guard let field = fieldName else { throw fail(line, "column '\(header)' names no field", "write \"\(header)\": FIELD, one of \(fields.keys.sorted().joined(separator: ", "))") }
            guard let kind = fields[field] else {
                throw fail(line, "unknown field '\(QuotedText.cut(field, limit: 60))' for target \(target.rawValue)",
                           (suggest(field, among: Array(fields.keys)).map { "did you mean '\($0)'? " } ?? "") + "the fields of \(target.rawValue) are \(fields.keys.sorted().joined(separator: ", "))")
            }
            var unit: ProfileUnit? = nil
            if let u = unitText {
                let accepted = ProfileUnit.accepted(kind)
                guard !accepted.isEmpty else { throw fail(unitLine, "field \(field) takes no unit, but column '\(header)' gives '\(u)'", "remove the unit") }
                guard let parsed = ProfileUnit.parse(u, kind: kind) else {
                    throw fail(unitLine, "unit '\(QuotedText.cut(u, limit: 40))' does not fit field \(field) (a \(kind.rawValue))", "use \(accepted)")
                }
                unit = parsed
            } else if ProfileUnit.required(kind) {
                throw fail(line, "column '\(header)' (\(field), a \(kind.rawValue)) has no unit, and FleetKit does not guess units", "write \"\(header)\": {field: \(field), unit: U} with U one of \(ProfileUnit.accepted(kind))")
            }
            if let other = columns.first(where: { $0.field == field }) {
                throw fail(line, "field \(field) is mapped twice (line \(other.line) and here)", "map each field from one column")
            }
            if let other = columns.first(where: { CSVHeader.normalise($0.header) == CSVHeader.normalise(header) }) {
                throw fail(line, "column '\(header)' is mapped twice (line \(other.line) and here)", "map each column once")
            }
            columns.append(Profile.Column(header: header, field: field, kind: kind, unit: unit, line: line))
        }
        let columnsLine = lines["columns"]!
        if let node = values["constants"] {
            columns += try constants(node, line: lines["constants"]!, target: target, mapped: columns, fail: fail)
        }
        // A native format reads the currency from its `currency` column: a money column's unit
        // (the whole file's currency) becomes that column's constant, so it is not lost.
        if target.readsNatively, !columns.contains(where: { $0.field == "currency" }),
           let money = columns.first(where: { $0.kind == .money }), case let .currency(code?) = money.unit {
            columns.append(Profile.Column(header: "constant:currency", field: "currency", kind: .currency, unit: nil, line: money.line, constant: code))
        }
        let mapped = Set(columns.map(\.field))
        if target.readsNatively {
            if let missing = target.required.first(where: { !mapped.contains($0) }) {
                throw fail(columnsLine, "\(target.rawValue) need a column mapped to \(missing)", "map the file's \(missing) column (docs/FORMATS.md lists the fields of each target)")
            }
            let keys = ProfileNativeRows.assetKeys(of: target)
            if !keys.isEmpty, mapped.isDisjoint(with: keys) {
                throw fail(columnsLine, "\(target.rawValue) need the vehicle: no column is mapped to \(keys.joined(separator: " or "))", "map the file's unit number or VIN column, or give constants: {unit_number: UNIT} for a file of one vehicle")
            }
        } else if target == .periodTotals {
            try periodChecks(mapped, line: columnsLine, fail: fail)
        } else if !mapped.contains("datetime") && !mapped.contains("date") {
            throw fail(columnsLine, "no column is mapped to datetime or date", "map the column with the time of each row to datetime (or date, and time if the clock is apart)")
        }
        if mapped.contains("datetime"), mapped.contains("date") || mapped.contains("time") {
            throw fail(columnsLine, "datetime and date/time are both mapped", "map one date-time column to datetime, or a date column to date and a clock column to time")
        }
        if mapped.contains("time"), !mapped.contains("date") {
            throw fail(columnsLine, "time is mapped without date", "map the date column to date")
        }
        if let missing = target.required.first(where: { !mapped.contains($0) }) {
            throw fail(columnsLine, "\(target.rawValue) need a column mapped to \(missing)", "map the file's \(missing) column")
        }
        if target == .meterReadings, mapped.isDisjoint(with: ["odometer", "engine_hours", "fuel_used"]) {
            throw fail(columnsLine, "meter_readings need at least one meter column", "map a column to odometer, engine_hours or fuel_used, with its unit")
        }
        if let df = dateFormat, mapped.contains("date"), df.hasTime {
            throw fail(lines["date_format"]!, "date_format '\(df.pattern)' has a clock, but the clock is in the time column", "write the date part only here and the clock in time_format")
        }
        if timeFormat != nil, !mapped.contains("time") {
            throw fail(lines["time_format"]!, "time_format is given but no column is mapped to time", "remove time_format, or map the clock column to time")
        }
        if let money = columns.first(where: { $0.kind == .money }), case .currency(.some) = money.unit, columns.contains(where: { $0.field == "currency" && $0.constant == nil }) {
            throw fail(money.line, "the amount's currency is both its unit and a currency column", "keep one: the unit for a file of one currency, the column for a file of many")
        }

        var preamble = 0, skipRows: [String] = []
        if let node = values["skip"] {
            (preamble, skipRows) = try skip(node, line: lines["skip"]!, fail: fail)
        }

        var signature = columns.filter { $0.constant == nil }.map(\.header)
        if let node = values["signature"] {
            guard let items = node.sequence?.map({ $0.scalar?.string }), !items.isEmpty, items.allSatisfy({ $0 != nil }) else {
                throw fail(lines["signature"]!, "'signature' must be a list of header texts", "write signature: [\"Header A\", \"Header B\"], the columns that tell this layout from others")
            }
            signature = items.compactMap { $0 }
        }
        return Profile(name: name, version: version, target: target, columns: columns, signature: signature, dateFormat: dateFormat,
                       timeFormat: timeFormat, zone: zone, decimalMark: decimal, groupingMark: grouping, encoding: encoding,
                       citation: citation, preamble: preamble, skipRows: skipRows, path: path, lines: lines)
    }

    /// What a `period_totals` profile must map: its period, as one local day (`date`) or as
    /// its first and last local days (`period_start` and `period_end`), and at least one measure.
    static func periodChecks(_ mapped: Set<String>, line: Int, fail: (Int, String, String) -> ProfileError) throws {
        let (day, from, to) = (mapped.contains("date"), mapped.contains("period_start"), mapped.contains("period_end"))
        if day, from || to {
            throw fail(line, "date and period_start/period_end are both mapped", "map date for a file of one row per day, or period_start and period_end for longer periods")
        }
        if from != to {
            throw fail(line, "\(from ? "period_start" : "period_end") is mapped without \(from ? "period_end" : "period_start")", "map both ends of the period (the first and the last day, both included)")
        }
        if !day, !from {
            throw fail(line, "no column is mapped to date, or to period_start and period_end", "map the day the totals are for to date, or the period's first and last days to period_start and period_end")
        }
        if mapped.isDisjoint(with: ProfileTarget.periodMeasures.keys) {
            throw fail(line, "period_totals need at least one measure column", "map a column to \(ProfileTarget.periodMeasures.keys.sorted().joined(separator: ", ")), with its unit")
        }
    }

    /// `constants:` — field: value pairs every row gets, for what a file states once or not at
    /// all (its currency, its vendor, the one vehicle it is about). Only fields that hold text,
    /// identifiers or a currency: a measured value or a time is never the same for every row.
    static func constants(_ node: Node, line: Int, target: ProfileTarget, mapped: [Profile.Column],
                          fail: (Int, String, String) -> ProfileError) throws -> [Profile.Column] {
        guard let map = node.mapping else { throw fail(line, "'constants' must map fields to values", "write constants: {currency: EUR, vendor: Main Street Garage}") }
        let fields = target.fields
        var out: [Profile.Column] = []
        for (k, v) in map {
            let l = k.mark?.line ?? line
            let field = k.string ?? "?"
            guard let kind = fields[field] else {
                throw fail(l, "unknown field '\(QuotedText.cut(field, limit: 60))' for target \(target.rawValue)",
                           (suggest(field, among: Array(fields.keys)).map { "did you mean '\($0)'? " } ?? "") + "the fields of \(target.rawValue) are \(fields.keys.sorted().joined(separator: ", "))")
            }
            guard [.text, .identifier, .vin, .currency].contains(kind) else {
                throw fail(l, "field \(field) (a \(kind.rawValue)) cannot be a constant", "map it from a column; constants hold text, identifiers and currencies, the same for every row")
            }
            guard let value = v.scalar?.string, !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail(l, "constant \(field) has no value", "write \(field): VALUE on one line")
            }
            if kind == .currency, !Money.isCurrencyCode(value.uppercased()) {
                throw fail(l, "constant currency '\(QuotedText.cut(value, limit: 20))' is not an ISO 4217 code", "write a code such as USD or EUR")
            }
            if let other = mapped.first(where: { $0.field == field }) {
                throw fail(l, "field \(field) is both a constant and mapped from column '\(other.header)' (line \(other.line))", "keep one: the column when rows differ, the constant when they cannot")
            }
            if kind == .currency, let money = mapped.first(where: { $0.kind == .money }), case .currency(.some) = money.unit {
                throw fail(l, "the amount's currency is both its unit (line \(money.line)) and a constant", "keep one")
            }
            out.append(Profile.Column(header: "constant:" + field, field: field, kind: kind, unit: nil, line: l, constant: value))
        }
        return out
    }

    /// `skip:` — `preamble: N` records before the header, and `rows: [patterns]`: a row with a
    /// cell that matches one (`Profile.glob`) is a totals or footer row, skipped with a note.
    static func skip(_ node: Node, line: Int, fail: (Int, String, String) -> ProfileError) throws -> (Int, [String]) {
        guard let map = node.mapping else { throw fail(line, "'skip' must be a mapping", "write skip: {preamble: 3, rows: [\"Total\", \"Totals\"]}") }
        var preamble = 0, rows: [String] = []
        for (k, v) in map {
            let l = k.mark?.line ?? line
            switch k.string {
            case "preamble":
                guard let n = v.scalar.flatMap({ Int($0.string) }), (0...1000).contains(n) else {
                    throw fail(l, "preamble '\(QuotedText.cut(v.scalar?.string ?? "?", limit: 20))' is not a number of records from 0 to 1000", "count the records above the header row: preamble: 3")
                }
                preamble = n
            case "rows":
                guard let items = v.sequence?.map({ $0.scalar?.string }), !items.isEmpty, items.allSatisfy({ $0 != nil }) else {
                    throw fail(l, "'rows' must be a list of cell patterns", "write rows: [\"Total\", \"Report generated *\"]")
                }
                for p in items.compactMap({ $0 }) {
                    guard p.contains(where: { $0 != "*" && !$0.isWhitespace }), p.count <= 100 else {
                        throw fail(l, "skip pattern '\(QuotedText.cut(p, limit: 40))' would match every cell", "give the row's label cell, e.g. \"Total\", or the words it starts with, e.g. \"Report generated *\"")
                    }
                    rows.append(p)
                }
            default:
                throw fail(l, "unknown key '\(QuotedText.cut(k.string ?? "?", limit: 40))' in skip", "skip takes preamble: and rows:")
            }
        }
        return (preamble, rows)
    }

    /// The line a YAML syntax error names, 1 when it names none.
    static func line(of error: YamlError) -> Int {
        switch error {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _): return mark.line
        case let .duplicatedKeysInMapping(_, context): return context.mark.line
        default: return 1
        }
    }

    /// The closest name to a misspelt one (edit distance at most 2), for "did you mean".
    static func suggest(_ word: String, among names: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var prev = Array(0...b.count)
            for (i, ca) in a.enumerated() {
                var cur = [i + 1] + Array(repeating: 0, count: b.count)
                for (j, cb) in b.enumerated() { cur[j + 1] = min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (ca == cb ? 0 : 1)) }
                prev = cur
            }
            return prev[b.count]
        }
        let w = Array(word.lowercased())
        return names.map { ($0, distance(w, Array($0))) }.filter { $0.1 <= 2 }.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}
