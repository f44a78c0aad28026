// Parse-only throughput of FleetKit's GPX byte scanner (no warehouse): scripts/bench-gpx.sh
// compiles it together with Sources/FleetCore and Sources/FleetImport/Formats/gpx (without the warehouse files) and Parsers/XML/{XMLBytes,XMLTokenizer,XMLTypes,XMLByteEncoding,XMLPrologGuard} into one program.
import Foundation

let path = CommandLine.arguments[1]
let start = Date()
var points = 0, timed = 0
let scanner = try GPXScanner(url: URL(fileURLWithPath: path))
try scanner.scan { p in
    points += 1
    if p.time != nil { timed += 1 }
}
let seconds = Date().timeIntervalSince(start)
print("parse-only: \(points) points (\(timed) timed) in \(String(format: "%.3f", seconds)) s = \(String(format: "%.2f", Double(points) / seconds / 1e6)) M points/s")
