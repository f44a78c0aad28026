import ArgumentParser
import FleetKit

/// `fleetkit review fix RECEIPT FIELD VALUE`: the right value, read by the same strict parsers
/// as imports (money with at most its currency's decimals, dates as YYYY-MM-DD, volumes with L
/// or gal).
struct ReviewFixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fix", abstract: "Correct one field of a receipt.")

    @OptionGroup var warehouse: WarehouseOptions
    @OptionGroup var reviewer: ReviewerOptions
    @Argument(help: "The receipt: its number in `review list`, its image's file name, or 8+ digits of its hash.")
    var receipt: String
    @Argument(help: "The field: total, date, volume, currency, unit-price, time, merchant, fuel-grade.")
    var field: String
    @Argument(help: "The value: 46.15, 2025-07-09, 35.10 L or 11.891 gal, EUR, 1.599, 06:51, a name.")
    var value: String

    func run() throws {
        try ReviewCommand.apply(receipt, [.fix(field, value)], warehouse: warehouse, by: reviewer.person)
    }
}
