import GRDB

/// One run of `fleetkit import` or `fleetkit nightly`: the run ledger.
public struct ImportRun: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "import_run"

    public var id: Int64?
    public var startedAt: Int64
    public var finishedAt: Int64?
    public var command: String
    public var status: String
    public var summaryJson: String?

    public init(id: Int64? = nil, startedAt: Int64, finishedAt: Int64? = nil, command: String, status: String, summaryJson: String? = nil) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.command = command
        self.status = status
        self.summaryJson = summaryJson
    }

    enum CodingKeys: String, CodingKey {
        case id
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case command
        case status
        case summaryJson = "summary_json"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension ImportRun {
    /// Every `import_run` column, spelled once: the run's INSERT is generated from it.
    public static let columnTable = ColumnTable<ImportRun>("import_run", [
        .value("started_at") { $0.startedAt },
        .value("finished_at") { $0.finishedAt },
        .value("command") { $0.command },
        .value("status") { $0.status },
        .value("summary_json") { $0.summaryJson },
    ], notWritten: ["id": "the rowid: the INSERT's new id",
                    "exit_code": "set when the run ends (ImportSession.finish, recordExitCode); NULL while it runs"])
}
