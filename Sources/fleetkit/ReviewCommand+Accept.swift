import ArgumentParser
import FleetKit

/// `fleetkit review accept RECEIPT [FIELD…]`: the values read are right. Without fields, every
/// field the receipt needs that was read (a missing one can only be fixed).
struct ReviewAcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept the values read for a receipt's fields (default: the fields it needs).")

    @OptionGroup var warehouse: WarehouseOptions
    @OptionGroup var reviewer: ReviewerOptions
    @Argument(help: "The receipt: its number in `review list`, its image's file name, or 8+ digits of its hash.")
    var receipt: String
    @Argument(help: "Fields to accept: total, date, volume, currency, unit-price, time, merchant, fuel-grade.")
    var fields: [String] = []

    func run() throws {
        try ReviewCommand.apply(receipt, fields.map { .accept($0) }, warehouse: warehouse, by: reviewer.person)
    }
}
