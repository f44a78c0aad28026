import GRDB

extension WarehouseMigrator {
    /// What a person needs to review a receipt, and what they decided.
    ///
    /// - `receipt_read`: one row per imported receipt image: whether it waits for review, and
    ///   what the importer needs to load it again without the image (the asset it was given, the
    ///   masked OCR text). Deleted with its source file.
    /// - `receipt_field`: each field read, as canonical text (`2025-07-09`, `46.15`, `11.891 gal`),
    ///   with its confidence and the OCR line it came from, so that `review list` can show why.
    /// - `receipt_correction`: every accept or fix, append-only (who, when, old, new) for audit.
    ///   Keyed by the image's content hash, not by a source file, so that a correction outlives
    ///   the file's rows and is applied again whenever the same image is read; the latest row of
    ///   a field wins.
    static let v9ReceiptReview = """
    CREATE TABLE receipt_read (
        source_file_id INTEGER PRIMARY KEY REFERENCES source_file(id) ON DELETE CASCADE,
        content_sha256 TEXT NOT NULL,
        image_path TEXT NOT NULL,
        is_fuel INTEGER NOT NULL CHECK (is_fuel IN (0, 1)),
        category TEXT NOT NULL,
        spend_kind TEXT,
        asset_unit TEXT,
        currency_source TEXT,
        total_check TEXT,
        masked_text TEXT NOT NULL,
        needs_review INTEGER NOT NULL CHECK (needs_review IN (0, 1))
    ) STRICT;
    CREATE INDEX receipt_read_sha ON receipt_read(content_sha256);
    CREATE TABLE receipt_field (
        source_file_id INTEGER NOT NULL REFERENCES receipt_read(source_file_id) ON DELETE CASCADE,
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        confidence REAL NOT NULL,
        line INTEGER,
        line_text TEXT,
        PRIMARY KEY (source_file_id, field)
    ) STRICT;
    CREATE TABLE receipt_correction (
        id INTEGER PRIMARY KEY,
        content_sha256 TEXT NOT NULL,
        field TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('accept', 'fix')),
        old_value TEXT,
        new_value TEXT NOT NULL,
        corrected_by TEXT NOT NULL,
        corrected_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX receipt_correction_key ON receipt_correction(content_sha256, field, id);
    """
}
