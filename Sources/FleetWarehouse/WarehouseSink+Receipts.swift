import GRDB

extension WarehouseSink {
    /// The latest accepted or fixed value of each field of the image with this content hash.
    public func receiptCorrections(sha256: String) throws -> [String: String] {
        try ReceiptReviewStore.corrections(db, sha256: sha256)
    }
}

/// The SQL of the review tables (migration v9-receipt-review), shared by the import sink and
/// the `review` commands so that both read and write them one way.
public enum ReceiptReviewStore {
    public static func corrections(_ db: Database, sha256: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT field, new_value FROM receipt_correction WHERE content_sha256 = ? ORDER BY id",
                                    arguments: [sha256]) {
            out[row[0]] = row[1]
        }
        return out
    }

    public static func history(_ db: Database, sha256: String) throws -> [ReceiptCorrection] {
        try Row.fetchAll(db, sql: """
            SELECT field, action, old_value, new_value, corrected_by, corrected_at FROM receipt_correction
            WHERE content_sha256 = ? ORDER BY id
            """, arguments: [sha256]).map {
            ReceiptCorrection(field: $0[0], action: $0[1], oldValue: $0[2], newValue: $0[3], correctedBy: $0[4], correctedAt: $0[5])
        }
    }

    public static func addCorrection(_ c: ReceiptCorrection, sha256: String, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO receipt_correction(content_sha256, field, action, old_value, new_value, corrected_by, corrected_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [sha256, c.field, c.action, c.oldValue, c.newValue, c.correctedBy, c.correctedAt])
    }

    /// The stored reading of one receipt, by its source file id.
    public static func reading(_ db: Database, sourceFileID: Int64) throws -> ReceiptReading? {
        guard let r = try Row.fetchOne(db, sql: "SELECT * FROM receipt_read WHERE source_file_id = ?", arguments: [sourceFileID]) else { return nil }
        let fields = try Row.fetchAll(db, sql: "SELECT field, value, confidence, line, line_text FROM receipt_field WHERE source_file_id = ? ORDER BY rowid",
                                      arguments: [sourceFileID]).map {
            ReceiptReading.FieldValue(field: $0[0], value: $0[1], confidence: $0[2], line: $0[3], lineText: $0[4])
        }
        return ReceiptReading(contentSHA256: r["content_sha256"], imagePath: r["image_path"], isFuel: r["is_fuel"], category: r["category"],
                              spendKind: r["spend_kind"], assetUnit: r["asset_unit"], currencySource: r["currency_source"],
                              totalCheck: r["total_check"], maskedText: r["masked_text"], needsReview: r["needs_review"], fields: fields)
    }
}
