// libFuzzer harness for the Samsara JSON path: the streaming JSONPullParser and JSONNode
// (Sources/FleetImport/Parsers/JSON/*) and the record value decoders (Parsers/JSON/JSONFields.swift,
// JSONTime.swift, JSONRowError.swift), compiled with FleetCore's sources into one module by `make fuzz`.
//
// Boundary: SamsaraReader and the per-shape handlers are generic over the warehouse's
// RecordSink (FleetWarehouse, GRDB), so this harness walks the document the way the reader
// does (pages, `data[]` records materialised with a size limit, stat arrays element by
// element) and puts every member of every record through the typed accessors. What a record
// becomes in the warehouse is covered by SamsaraImporterTests, not here.
//
// Properties: no crash or hang; the token stream is balanced and ends after one value; the
// same bytes read through a file in 64 KiB chunks give the same tokens; accessors never
// return a non-finite number or an implausible time, and every error names a path.
import Foundation

private let inputPath = "/tmp/fleetkit-fuzz-samsara-\(getpid())"

private func tokens(_ parser: inout JSONPullParser) -> (tokens: [JSONToken], error: String?) {
    var out: [JSONToken] = []
    var depth = 0
    do {
        while let t = try parser.next() {
            switch t {
            case .objectStart, .arrayStart: depth += 1
            case .objectEnd, .arrayEnd: depth -= 1; precondition(depth >= 0, "more containers closed than opened")
            case let .number(n): precondition(!n.isEmpty && Double(n) != nil, "number token '\(n)' is not a number")
            default: break
            }
            precondition(depth <= parser.maxDepth, "depth \(depth) beyond the limit")
            out.append(t)
        }
        precondition(depth == 0, "the document ended with \(depth) containers open and no error")
        return (out, nil)
    } catch let e as JSONReadError {
        precondition(!e.message.isEmpty)
        return (out, "\(e.offset) \(e.message)")
    } catch {
        preconditionFailure("the parser threw \(type(of: error)): \(error)")
    }
}

/// Every member of a record through every accessor that applies to its kind, recursively.
private func decode(_ f: JSONFields, depth: Int) {
    guard depth < 8 else { return }
    for m in f.node.members {
        let key = m.key
        precondition(!f.at(key).isEmpty)
        do {
            switch m.value {
            case .number:
                if let n = try f.number(key) { precondition(n.value.isFinite, "\(f.at(key)) is \(n.value)") }
                if let n = try f.number(key, in: -90...90, unit: "°") { precondition((-90...90).contains(n.value)) }
                _ = try? JSONTime.epochMillis(f, key).map { precondition(Timestamp.plausible.contains($0)) }
                _ = try f.id(key)
            case .string:
                if let s = try f.string(key) { precondition(!s.isEmpty) }
                if let t = try? f.time(key) { precondition(Timestamp.plausible.contains(t), "\(f.at(key)) time \(t)") }
                _ = try? f.requiredTime(key)
            case .bool: _ = try f.bool(key)
            case .object: if let o = try f.object(key) { decode(o, depth: depth + 1) }
            case .array: for (i, item) in try f.array(key).prefix(64).enumerated() {
                decode(item, depth: depth + 1)
                _ = JSONFields(item.node, at: f.at(key), index: i).path
            }
            case .null: precondition(!f.has(key))
            }
        } catch let e as JSONRowError {
            precondition(!e.path.isEmpty && !e.message.isEmpty, "an error without a path or message")
        } catch {
            preconditionFailure("an accessor threw \(type(of: error))")
        }
        _ = f.unknownKeys(["id", "name", "time", "value"])
    }
}

/// The reader's walk: one page or an array of pages; `data` records read whole (limited), or,
/// for a stats page, each vehicle's arrays point by point.
private func walk(_ bytes: [UInt8]) throws {
    var p = try JSONPullParser(bytes: bytes, maxTokenBytes: 4096, maxDepth: 32)
    func page(_ prefix: String) throws {
        while let t = try p.next(), t != .objectEnd {
            guard case let .key(k) = t else { return }
            guard k == "data" || k == "trips", try p.peek() == .arrayStart else {
                _ = try? p.readNode(limit: 4096)
                continue
            }
            _ = try p.next()
            var i = 0
            while let t = try p.peek(), t != .arrayEnd {
                do {
                    let node = try p.readNode(limit: 8192)
                    decode(JSONFields(node, at: "\(prefix)\(k)[\(i)]"), depth: 0)
                    _ = node.render(limit: 256)
                } catch let e as JSONNodeTooLarge {
                    precondition(e.limit == 8192)
                }
                i += 1
            }
            _ = try p.next()
        }
    }
    switch try p.next() {
    case .objectStart?: try page("")
    case .arrayStart?:
        var n = 0
        while try p.peek() == .objectStart { _ = try p.next(); try page("[\(n)]."); n += 1 }
    default: break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamsaraJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard var inMemory = try? JSONPullParser(bytes: bytes) else { return 0 }
    let a = tokens(&inMemory)
    // The file path reads in chunks; its tokens and first error must be the same.
    let url = URL(fileURLWithPath: inputPath)
    if (try? Data(bytes).write(to: url)) != nil {
        defer { try? FileManager.default.removeItem(at: url) }
        if var fromFile = try? JSONPullParser(url: url) {
            let b = tokens(&fromFile)
            precondition(a.tokens == b.tokens, "tokens differ between memory and file")
            precondition(a.error == b.error, "errors differ: \(String(describing: a.error)) vs \(String(describing: b.error))")
        }
    }
    for s in a.tokens.prefix(256) {
        if case let .string(text) = s, case let .at(ms) = JSONTime.parse(text) { precondition(Timestamp.plausible.contains(ms)) }
    }
    do { try walk(bytes) } catch is JSONReadError {} catch is JSONNodeTooLarge {} catch {
        preconditionFailure("the walk threw \(type(of: error)): \(error)")
    }
    return 0
}
