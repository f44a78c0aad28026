import ArgumentParser

/// `fleetkit warehouse copy`: moves a whole warehouse between engines (docs/OPERATIONS.md "PostgreSQL").
struct WarehouseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warehouse",
        abstract: "Move a warehouse between SQLite and PostgreSQL.",
        discussion: """
            `warehouse copy` copies every table of an SQLite warehouse into an empty PostgreSQL database \
            (native types, month-partitioned large tables), or a PostgreSQL warehouse into a new SQLite file. \
            Import and reports still run on SQLite only; the PostgreSQL copy is for BI tools and other \
            readers (docs/OPERATIONS.md, "PostgreSQL").
            """,
        subcommands: [WarehouseCopyCommand.self])
}
