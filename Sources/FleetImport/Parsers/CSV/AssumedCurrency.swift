import FleetCore
import FleetWarehouse

/// Counts the money rows of a file that took the warehouse's base currency because the file gave
/// none, and says so on the import line: "8 rows took the warehouse currency USD: no currency
/// column". A Canadian card file exported without its currency column otherwise reads as USD
/// without a word; the rows also carry `currency_assumed = 1`, which the cost report counts.
struct AssumedCurrency {
    private(set) var rows = 0
    private var emptyCells = 0
    private var firstLines: [Int] = []

    /// True when `row` has no currency of its own.
    static func isAssumed(_ row: Row, column: String = "currency") -> Bool { row.text(column) == nil }

    /// Counts `row` once it loaded, when it took the base currency.
    mutating func count(_ row: Row, column: String = "currency") {
        guard Self.isAssumed(row, column: column) else { return }
        rows += 1
        if row.header.index(column) != nil { emptyCells += 1 }
        if firstLines.count < 5 { firstLines.append(row.line) }
    }

    /// The note, when any row took the base currency.
    func note(into sink: inout some RecordSink, base: String) {
        guard rows > 0 else { return }
        let why = emptyCells == 0 ? "no currency column" : rows == 1 ? "its currency cell is empty" : "their currency cells are empty"
        let lines = firstLines.map(String.init).joined(separator: ", ") + (rows > firstLines.count ? ", …" : "")
        sink.note("\(rows) row\(rows == 1 ? "" : "s") took the warehouse currency \(base): \(why) (line\(rows == 1 ? "" : "s") \(lines)); "
                  + "if they are in another currency, add a currency column and import the file again")
    }
}
