import GRDB

/// One imported file, keyed by the SHA-256 of its bytes: the same bytes again are a no-op.
public struct SourceFile: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "source_file"

    public var id: Int64?
    public var path: String
    public var sha256: String
    public var format: String
    public var bytes: Int64
    public var importedAt: Int64
    public var exportedAt: Int64?
    public var importRunID: Int64?
    public var status: String
    public var loaded: Int
    public var updated: Int
    public var unchanged: Int
    public var rejected: Int

    public init(id: Int64? = nil, path: String, sha256: String, format: String, bytes: Int64, importedAt: Int64, exportedAt: Int64? = nil, importRunID: Int64? = nil, status: String, loaded: Int, updated: Int, unchanged: Int, rejected: Int) {
        self.id = id
        self.path = path
        self.sha256 = sha256
        self.format = format
        self.bytes = bytes
        self.importedAt = importedAt
        self.exportedAt = exportedAt
        self.importRunID = importRunID
        self.status = status
        self.loaded = loaded
        self.updated = updated
        self.unchanged = unchanged
        self.rejected = rejected
    }

    enum CodingKeys: String, CodingKey {
        case id
        case path
        case sha256
        case format
        case bytes
        case importedAt = "imported_at"
        case exportedAt = "exported_at"
        case importRunID = "import_run_id"
        case status
        case loaded
        case updated
        case unchanged
        case rejected
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension SourceFile {
    /// Every `source_file` column, spelled once: the import's INSERT (before the file is read)
    /// and UPDATE (its digest, status and counts once it is) are generated from it.
    public static let columnTable = ColumnTable<SourceFile>("source_file", [
        .value("path") { $0.path },
        .value("sha256") { $0.sha256 },
        .value("format") { $0.format },
        .value("bytes") { $0.bytes },
        .value("imported_at") { $0.importedAt },
        .value("exported_at") { $0.exportedAt },
        .value("import_run_id") { $0.importRunID },
        .value("status") { $0.status },
        .value("loaded") { $0.loaded },
        .value("updated") { $0.updated },
        .value("unchanged") { $0.unchanged },
        .value("rejected") { $0.rejected },
    ], notWritten: ["id": "the rowid: the INSERT's new id, the UPDATE's WHERE"])
}
