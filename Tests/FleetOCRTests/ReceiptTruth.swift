import Foundation
import FleetCore
import FleetOCR

/// The generated receipt set (`scripts/receipts/generate.py`) and its ground truth, and how a
/// reading is scored against it. Shared by the OCR tests and the accuracy benchmark.
struct ReceiptTruth: Decodable {
    var file: String
    var layout: String
    var kind: String
    var merchant: String
    var date: String
    var time: String?
    var total: String
    var currency: String
    var volume: String?
    var volume_unit: String?
    var unit_price: String?
    var grade: String?
    var card_last4: String?
    var unit_number: String?
    var odometer: String?
    var category: String?
    var degraded: Bool
    var degradations: [String]

    struct Set: Decodable { var receipts: [ReceiptTruth] }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/receipts")

    static func all() throws -> [ReceiptTruth] { try all(in: folder) }

    /// A set generated elsewhere (`generate.py --count 100 --set-only --out DIR`, for the
    /// throughput benchmark), with each file named by its absolute path.
    static func all(in directory: URL) throws -> [ReceiptTruth] {
        let set = try JSONDecoder().decode(Set.self, from: Data(contentsOf: directory.appendingPathComponent("truth.json"))).receipts
        guard directory != folder else { return set }
        return set.map { var t = $0; t.file = directory.appendingPathComponent(t.file).path; return t }
    }

    var path: String { file.hasPrefix("/") ? file : Self.folder.appendingPathComponent(file).path }

    /// Whether each benchmark field was read right; nil when the truth has no such field.
    func score(_ f: ReceiptFields) -> [String: Bool?] {
        func same(_ d: DecimalNumber?, _ s: String?) -> Bool? {
            guard let s else { return nil }
            guard let d, let want = Double(s) else { return false }
            return abs(d.double - want) < 1e-9
        }
        return [
            "total": same(f.total?.value, total),
            "date": f.date?.value.description == date,
            "volume": volume == nil ? nil : same(f.volume?.value.amount, volume)! && f.volume?.value.unit.rawValue == volume_unit,
            "merchant": Self.sameName(f.merchant?.value, merchant),
            "time": time.map { f.time?.value.description == $0 },
            "currency": f.currency?.value == currency,
            "card_last4": f.cardLast4?.value == card_last4,
            "grade": grade.map { f.fuelGrade?.value.uppercased() == $0.uppercased() },
            "unit_number": f.unitNumber?.value == unit_number,
            "kind": (f.isFuel ? "fuel" : "expense") == kind,
        ]
    }

    /// Names compare on letters and digits, upper case, and allow one OCR slip per ten characters.
    static func sameName(_ got: String?, _ want: String) -> Bool {
        guard let got else { return false }
        let a = Array(got.uppercased().filter { $0.isLetter || $0.isNumber }), b = Array(want.uppercased().filter { $0.isLetter || $0.isNumber })
        return editDistance(a, b) <= max(1, b.count / 10)
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var prev = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = old
            }
        }
        return row[b.count]
    }
}
