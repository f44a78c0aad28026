import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit profile list|test|suggest`: the mapping profiles an import uses (docs/FORMATS.md, "Mapping profiles").
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Mapping profiles: list them, preview a file as a profile would store it, or suggest one for a file.",
        discussion: """
            A profile maps one spreadsheet or CSV layout's columns to a FleetKit record (fuel purchases, \
            expenses, meter readings, positions), with each column's unit, the date pattern and zone, \
            and the number marks. Profiles come from FleetKit itself, from --profiles folders and from \
            the profiles folder beside the warehouse; `fleetkit import` uses the one whose signature a \
            file's header has, or the one --profile names.
            """,
        subcommands: [ProfileListCommand.self, ProfileTestCommand.self, ProfileSuggestCommand.self])
}

/// Where profiles come from and the settings a preview uses, shared by the profile commands.
struct ProfileOptions: ParsableArguments {
    @OptionGroup var warehouse: WarehouseOptions
    @Option(name: .customLong("profiles"), help: ArgumentHelp("A folder of profiles (*.yml) to use besides the shipped ones and the profiles folder beside the warehouse; repeatable.", valueName: "dir"))
    var folders: [String] = []

    func library() throws -> ProfileLibrary {
        try ProfileLibrary.load(folders: folders + [ProfileLibrary.folder(besideWarehouse: warehouse.path)])
    }

    /// The warehouse's zone and currency, or UTC and USD when there is no warehouse (said on stderr).
    func settings() throws -> (zone: FleetZone, currency: String) {
        guard FileManager.default.fileExists(atPath: warehouse.path) else {
            Console.err("note: no warehouse at \(warehouse.path); times without a zone are read as UTC and amounts without a currency as USD")
            return (.utc, "USD")
        }
        let s = try warehouse.open(readOnly: true).settings()
        return (s.zone, s.currency)
    }
}
