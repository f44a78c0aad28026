// libFuzzer harness: the mapping-profile reader (FleetImport/Profiles without the importer and
// preview, which need FleetWarehouse) must never crash, hang or loop on any bytes. Each input is
// read as `ProfileFile.load` reads a file (at most 64 KiB of UTF-8) and parsed by
// `ProfileFile.parse` (anchor check, Yams's node tree, every key, pattern, zone and unit check);
// a profile it accepts must hold what docs/FORMATS.md promises of a valid one. Every line of the
// input (at most 32) is also compiled as a date and as a time pattern (`ProfileDateFormat`), read
// by each pattern that compiles, and parsed as a unit of every field kind (`ProfileUnit`).
// Yams (with its C libyaml) is built by Fuzz/run.sh as its own instrumented module; the profile
// sources are staged into one module with FleetCore's.
import Foundation

private let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
private let kinds: [ProfileTarget.Kind] = [.text, .identifier, .vin, .currency, .date, .time, .datetime, .money, .price,
                                           .distance, .volume, .duration, .speed, .latitude, .longitude, .heading, .number]

/// The text a pattern writes for `p`, two digits for every one-or-two-digit field.
private func render(_ f: ProfileDateFormat, _ p: ProfileDateFormat.Parts) -> String {
    func pad(_ n: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(n).count)) + String(n) }
    var s = ""
    for t in f.tokens {
        switch t {
        case .year: s += pad(p.year, 4)
        case .month: s += pad(p.month, 2)
        case .monthName: s += months[p.month - 1]
        case .day: s += pad(p.day, 2)
        case .hour24: s += pad(p.hour, 2)
        case .hour12: s += pad(p.hour % 12 == 0 ? 12 : p.hour % 12, 2)
        case .minute: s += pad(p.minute, 2)
        case .second: s += pad(p.second, 2)
        case .millis: s += pad(p.millis, 3)
        case .ampm: s += p.hour >= 12 ? "PM" : "AM"
        case let .literal(c): s.append(c)
        }
    }
    return s
}

private func checkPattern(_ f: ProfileDateFormat, lines: [String]) {
    // Compiling the accepted pattern again gives the same tokens.
    guard case let .success(again) = ProfileDateFormat.compile(f.pattern, dateRequired: false) else { preconditionFailure("accepted pattern refused on recompiling") }
    precondition(again == f)
    // Literal digits or spaces can run into the numbers or be trimmed, and a combining mark joins
    // the digit before it: round trips only with ASCII literals other than those.
    let plain = f.tokens.allSatisfy { if case let .literal(c) = $0 { return c.isASCII && !c.isNumber && !c.isWhitespace }; return true }
    for line in lines {
        guard let p = f.parse(line) else { continue }
        precondition((0...9999).contains(p.year) && (0...12).contains(p.month) && (0...31).contains(p.day))
        precondition((0..<24).contains(p.hour) && (0..<60).contains(p.minute) && (0..<60).contains(p.second) && (0..<1000).contains(p.millis))
        if f.hasDate { precondition(CivilDate(year: p.year, month: p.month, day: p.day) != nil) }
        if plain { precondition(f.parse(render(f, p)) == p, "parsed fields do not read back") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfileFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= ProfileFile.maxBytes, let text = String(data: Data(bytes: data, count: size), encoding: .utf8) else { return 0 }
    do {
        let profile = try ProfileFile.parse(text, path: "fuzz.yml")
        let fields = profile.target.fields
        let mapped = profile.columns.map(\.field)
        precondition(!profile.name.isEmpty && profile.name.count <= 64)
        precondition(!profile.columns.isEmpty && Set(mapped).count == mapped.count)
        if profile.target.readsNatively {
            let keys = ProfileNativeRows.assetKeys(of: profile.target)
            precondition(keys.isEmpty || !Set(mapped).isDisjoint(with: keys))
        } else {
            precondition(mapped.contains("datetime") || mapped.contains("date"))
        }
        for c in profile.columns where c.constant != nil { precondition([.text, .identifier, .vin, .currency].contains(c.kind)) }
        precondition((0...1000).contains(profile.preamble) && profile.skipRows.allSatisfy { $0.contains { $0 != "*" && !$0.isWhitespace } })
        precondition(profile.target.required.allSatisfy(mapped.contains))
        for c in profile.columns {
            precondition(fields[c.field] == c.kind)
            precondition(c.unit != nil || !ProfileUnit.required(c.kind))
            if let u = c.unit { precondition(u.factor.isFinite && u.factor > 0) }
        }
        precondition(profile.groupingMark != profile.decimalMark)
        precondition(profile.matches(header: profile.signature))
        precondition(profile.missingColumn(in: profile.columns.map(\.header)) == nil)
        if let t = profile.timeFormat { precondition(t.hasTime && !t.hasDate) }
    } catch let e as ProfileError {
        precondition(e.line >= 0 && !e.problem.message.isEmpty && !e.problem.fix.isEmpty)
    } catch {
        preconditionFailure("ProfileFile.parse threw \(type(of: error)), not a ProfileError")
    }

    let lines = text.split(separator: "\n", maxSplits: 32, omittingEmptySubsequences: false).prefix(32).map(String.init)
    for line in lines {
        for required in [true, false] {
            if case let .success(f) = ProfileDateFormat.compile(line, dateRequired: required) {
                if required { precondition(f.hasDate) }
                checkPattern(f, lines: lines)
            }
        }
        for kind in kinds {
            guard let u = ProfileUnit.parse(line, kind: kind) else { continue }
            precondition(!ProfileUnit.accepted(kind).isEmpty && u.factor.isFinite && u.factor > 0)
        }
    }
    return 0
}
