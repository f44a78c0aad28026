import GRDB
import FleetCore

/// Rows a file loads beside rows of an earlier file that are the same in everything but the
/// currency: a corrected re-export that adds a `Currency` column (the first file's amounts took
/// the warehouse currency) has no transaction id to update by, so its rows get keys of their own
/// and every fill would be counted twice. Such a file is refused with the earlier file named, so
/// the user imports it with `--replaces` (docs/OPERATIONS.md, "Corrections").
///
/// Same means: a fuel purchase of the same origin, time, asset, card, volume and total; an
/// expense of the same time, asset, category, vendor and amount.
public struct CurrencyTwins: Sendable, Equatable, Codable {
    /// The earlier file's id and path.
    public var sourceFileID: Int64
    public var path: String
    /// How many rows of the new file match rows of that file except the currency.
    public var rows: Int
    /// The currencies there and here, e.g. `USD` and `CAD`.
    public var theirs: [String]
    public var ours: [String]

    enum CodingKeys: String, CodingKey {
        case sourceFileID = "source_file_id"
        case path, rows, theirs, ours
    }

    /// "8 rows match rows of #1 card.csv except the currency (USD there, CAD here)".
    public var text: String {
        "\(rows) row\(rows == 1 ? "" : "s") match\(rows == 1 ? "es" : "") rows of #\(sourceFileID) \(path) except the currency "
            + "(\(theirs.joined(separator: ", ")) there, \(ours.joined(separator: ", ")) here)"
    }

    /// The matches of file ?1's rows in earlier files, per earlier file.
    static let sql = """
        SELECT o.source_file_id, COUNT(DISTINCT n.id), GROUP_CONCAT(DISTINCT o.currency), GROUP_CONCAT(DISTINCT n.currency)
        FROM fuel_purchase n JOIN fuel_purchase o
          ON o.at = n.at AND o.total_minor IS n.total_minor AND o.source_file_id < n.source_file_id AND o.origin = n.origin
         AND o.currency <> n.currency AND o.asset_id IS n.asset_id AND o.card_last4 IS n.card_last4 AND o.volume_ml IS n.volume_ml
        WHERE n.source_file_id = ?1 GROUP BY o.source_file_id
        UNION ALL
        SELECT o.source_file_id, COUNT(DISTINCT n.id), GROUP_CONCAT(DISTINCT o.currency), GROUP_CONCAT(DISTINCT n.currency)
        FROM expense n JOIN expense o
          ON o.at = n.at AND o.amount_minor = n.amount_minor AND o.source_file_id < n.source_file_id AND o.currency <> n.currency
         AND o.asset_id IS n.asset_id AND o.category = n.category AND o.vendor IS n.vendor
        WHERE n.source_file_id = ?1 GROUP BY o.source_file_id
        """

    /// The earlier files whose rows the rows of file `fileID` (loaded in this transaction) match
    /// except the currency, by file id. Earlier is a lower id: the file being loaded holds the
    /// highest, so the seek on `expense_twin` / `fuel_purchase_twin` (time, amount, then a range
    /// of files) never reads the file's own rows, however many share a time and amount.
    public static func find(_ db: Database, fileID: Int64) throws -> [CurrencyTwins] {
        var byFile: [Int64: (rows: Int, theirs: Set<String>, ours: Set<String>)] = [:]
        for row in try Row.fetchAll(db, sql: Self.sql, arguments: [fileID]) {
            let id: Int64 = row[0], n: Int = row[1]
            let theirs = Set((row[2] as String? ?? "").split(separator: ",").map(String.init))
            let ours = Set((row[3] as String? ?? "").split(separator: ",").map(String.init))
            byFile[id, default: (0, [], [])].rows += n
            byFile[id]?.theirs.formUnion(theirs)
            byFile[id]?.ours.formUnion(ours)
        }
        return try byFile.keys.sorted().map { id in
            let path = try String.fetchOne(db, sql: "SELECT path FROM source_file WHERE id = ?", arguments: [id]) ?? "?"
            let m = byFile[id]!
            return CurrencyTwins(sourceFileID: id, path: path, rows: m.rows, theirs: m.theirs.sorted(), ours: m.ours.sorted())
        }
    }

    /// Why a file is refused: the matches and the fix.
    public static func refusal(_ twins: [CurrencyTwins]) -> String {
        let paths = twins.map(\.path)
        return twins.map(\.text).joined(separator: "; ")
            + ": loaded beside them, each would be counted twice. If this file corrects "
            + (paths.count == 1 ? "that one" : "those")
            + ", import it with " + paths.map { "--replaces \($0)" }.joined(separator: " ")
            + " (the earlier rows are forgotten in the same transaction)"
    }
}
