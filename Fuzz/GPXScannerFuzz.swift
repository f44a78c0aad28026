// libFuzzer harness for the byte-level GPX scanner (Sources/FleetImport/Formats/gpx/* and Parsers/XML/{XMLBytes,XMLTokenizer,XMLTypes,XMLByteEncoding,XMLPrologGuard}, compiled with
// FleetCore's sources into one module by `make fuzz`). It must never crash, hang or overrun its
// window on any bytes, and what it reads must not depend on where the input's chunks end:
// the same bytes scanned in 1 MiB and in tiny chunks give the same points and the same error.
// Every point it calls usable must be one a position row can hold.
import Foundation

private func scan(_ bytes: [UInt8], chunk: Int) -> (points: [String], error: String?, names: [String?]) {
    let scanner = GPXScanner(bytes: bytes, chunkSize: chunk)
    var points: [String] = []
    do {
        try scanner.scan { p in
            if let problem = p.problem {
                precondition(!problem.message.isEmpty, "a problem without a message at \(p.path)")
                // The raw text of a rejected point is what the reject keeps: it must be readable.
                let raw = scanner.rawText()
                precondition(raw.utf8.count <= 1 << 20, "raw text of \(p.path) is \(raw.utf8.count) bytes")
                points.append("\(p.path) line \(p.line) \(problem.reason): \(problem.message) raw=\(raw)")
            } else {
                guard let lat = p.lat, let lon = p.lon, let time = p.time else {
                    preconditionFailure("\(p.path) has no problem but lacks lat, lon or time")
                }
                precondition((-90...90).contains(lat) && (-180...180).contains(lon), "\(p.path) out of range: \(lat) \(lon)")
                precondition(Timestamp.plausible.contains(time), "\(p.path) time \(time) is implausible")
                for v in [p.ele, p.speed, p.course] { if let v { precondition(v.isFinite, "\(p.path) carries \(v)") } }
                if let c = p.course { precondition((0...360).contains(c), "\(p.path) course \(c)") }
                if let s = p.speed { precondition(s >= 0, "\(p.path) speed \(s)") }
                points.append("\(p.path) line \(p.line) \(lat) \(lon) \(time) \(p.ele.map { "\($0)" } ?? "-") \(p.speed.map { "\($0)" } ?? "-") \(p.course.map { "\($0)" } ?? "-")")
            }
        }
        return (points, nil, [scanner.fileName, scanner.trackName])
    } catch let e as GPXFileError {
        precondition(e.line >= 1 && e.offset >= 0 && e.offset <= Int64(bytes.count), "error located outside the input: \(e)")
        return (points, "\(e.line): \(e.message)", [scanner.fileName, scanner.trackName])
    } catch {
        preconditionFailure("the scanner threw a non-GPX error: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPXScanner(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = scan(bytes, chunk: 1 << 20)
    // A chunk size chosen by the input, so boundaries land inside every kind of token.
    let chunk = 1 + Int(bytes.first ?? 0) % 61
    let pieces = scan(bytes, chunk: chunk)
    precondition(pieces.points == whole.points, "points differ with \(chunk)-byte chunks")
    precondition(pieces.error == whole.error, "error differs with \(chunk)-byte chunks: \(String(describing: whole.error)) vs \(String(describing: pieces.error))")
    precondition(pieces.names == whole.names, "names differ with \(chunk)-byte chunks")
    // The header scan used for attribution stops early but must agree on what it read.
    let header = GPXScanner(bytes: bytes, chunkSize: chunk)
    _ = try? header.scan(headerOnly: true) { _ in }
    return 0
}
