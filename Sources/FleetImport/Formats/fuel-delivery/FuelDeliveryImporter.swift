import Foundation
import FleetCore
import FleetWarehouse

/// Fuel delivered into an on-site (bulk) tank, and the tank's level readings
/// (`fuel-delivery.csv`, from the supplier's invoices or the site's tank log). A second format
/// beside `fuel-dispense`, not a row kind of it: a delivery carries money (cost, currency,
/// supplier, invoice) that a dispense never has, comes from another system (accounts payable,
/// not the pump), and is what a finance user corrects and re-exports (docs/FORMATS.md).
///
/// Each row is a `delivery` (the default) or, with `kind` = `dip`, a level reading of the tank
/// (a dip stick or gauge), which the tank reconciliation uses for the level change. A kind that
/// is neither is rejected as neither (`BulkFuelRejects`), never taken for a delivery.
///
/// The natural keys:
/// - a delivery with an invoice (or bill of lading) number: `id:<supplier>|<invoice>` (unique per
///   supplier), so a corrected re-export updates the delivery in place; without one,
///   `row:<time>|<TANK>`: one delivery into a tank at one instant, so a corrected volume or cost
///   restates it instead of doubling it;
/// - a dip: `dip:<time>|<TANK>`.
public struct FuelDeliveryImporter: Importer {
    public static let format = "fuel-delivery"
    public static let summary = "Bulk fuel delivered into an on-site tank (volume, cost, supplier, invoice) and tank dip readings (CSV)"
    public static let example = "fuel-delivery.csv"

    static let columns: [String: [String]] = [
        "kind": ["row_kind", "record_type", "entry_type"],
        "tank": ["tank_id", "tank_number", "tank_no", "tank_name", "storage_tank", "bulk_tank"],
        "date": ["delivery_date", "delivered_at", "reading_date", "date_time", "datetime", "timestamp"],
        "time": ["delivery_time", "reading_time", "time_of_day"],
        "gallons": ["gal", "us_gallons", "volume_gal", "volume_gallons", "gallons_delivered"],
        "litres": ["liters", "litre", "liter", "ltr", "volume_l", "volume_litres", "volume_liters", "litres_delivered", "liters_delivered"],
        "quantity": ["qty", "volume", "fuel_quantity", "fuel_volume"],
        "volume_unit": ["unit_of_measure", "uom", "quantity_unit", "volume_uom"],
        "cost": ["total_cost", "total", "amount", "invoice_amount", "delivery_cost"],
        "currency": ["currency_code", "ccy"],
        "supplier": ["supplier_name", "vendor", "vendor_name", "distributor"],
        "invoice": ["invoice_number", "invoice_no", "bill_of_lading", "bol", "bol_number", "delivery_ticket"],
    ]
    static let required = ["tank", "date"]
    static let kinds: [String: [String]] = ["delivery": ["deliveries", "receipt", "load"], "dip": ["dip reading", "level", "stick", "gauge", "reading"]]

    public init() {}

    /// A tank, a time, a volume and a cost; or a tank, a time, a volume and a row kind (a file
    /// of dips only has no cost).
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        CSVSniffer.confidence(head, filename: filename, format: format, columns: columns,
                              requiredAnyOf: ["gallons", "litres", "quantity"].flatMap { [["tank", "date", "cost", $0], ["tank", "date", "kind", $0]] })
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        var assumed = AssumedCurrency()
        rows.salvage = BulkFuelRejects.delivery
        try rows.forEach(into: &sink) { row, sink in
            let kind = try BulkFuelRejects.deliveryKind(row)
            guard let tankText = row.text("tank") else { throw RowError(.missingField, "'tank' is empty; every \(kind) names its tank") }
            let tank = try FuelDispenseImporter.tankID(tankText)
            guard let at = try row.timestamp(date: "date", time: "time") else {
                throw RowError(.missingField, "'date' is empty; every \(kind) needs its time")
            }
            if kind == "dip" {
                guard let level = try FuelCardImporter.volume(row) else {
                    throw RowError(.missingField, "the dip has no level: fill 'gallons', 'litres', or 'quantity' with 'volume_unit'")
                }
                guard level.millilitres >= 0, level.millilitres <= FuelDispenseImporter.maxMillilitres else {
                    throw RowError(.outOfRange, "the level is \(level.amount) \(level.unit); a tank level is at least 0 and at most 100,000 L")
                }
                let key = "dip:\(Timestamp.iso(at))|\(tank)"
                try row.unique(key, "a dip of tank \(tank) at the same time")
                try sink.load(TankDip(sourceKey: key, tank: tank, at: at, levelMl: level.millilitres, sourceFileID: sink.sourceFileID))
                return
            }
            let volume = try FuelDispenseImporter.volume(row)
            let currency = try row.currencyCode()
            guard let cost = try RowHints.adding(RowHints.amount(currency), { try row.money("cost", currency: currency) }) else {
                throw RowError(.missingField, "'cost' is empty; a delivery without its cost cannot price the fuel dispensed from the tank")
            }
            guard cost >= 0 else {
                throw RowError(.outOfRange, "'cost' is \(Money(minor: cost, currency: currency)); a delivery's cost is not negative (a credit note is a correction of the delivery: re-export it with the corrected cost)")
            }
            let supplier = row.text("supplier"), invoice = row.text("invoice")
            let key: String
            if let invoice {
                key = BulkFuelRejects.deliveryKey(supplier: supplier, invoice: invoice)
                try row.unique(key, "invoice \(invoice)" + (supplier.map { " of \($0)" } ?? ""))
            } else {
                key = "row:\(Timestamp.iso(at))|\(tank)"
                try RowHints.adding("if they really are two deliveries, add an invoice column so that they can be told apart") {
                    try row.unique(key, "a delivery into tank \(tank) at the same time")
                }
            }
            try sink.load(TankDelivery(sourceKey: key, tank: tank, at: at, volumeMl: volume, costMinor: cost, currency: currency,
                                       currencyAssumed: AssumedCurrency.isAssumed(row), supplier: supplier, invoice: invoice, sourceFileID: sink.sourceFileID))
            assumed.count(row)
        }
        assumed.note(into: &sink, base: input.currency)
    }
}
