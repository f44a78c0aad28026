import FleetCore

/// What a rejected row of the bulk-fuel formats (`fuel-dispense`, `fuel-delivery`) still says
/// (`CSVRows.salvage`), and the natural keys both the load and the reject use, so that the
/// corrected row, once loaded, resolves its reject (`RejectResolution`).
///
/// The `try?`s below are salvage, not error handling: the row's own error is already its
/// reject's reason (`CSVRows`), and these only recover what else the row still says (its time,
/// key, amount) for the reject's listing; a part that cannot be read is left out of it.
///
/// A row of a delivery file whose `kind` cannot be read is neither a delivery nor a dip: its
/// reject claims no fact table, no key and no amount (a guess would list an unknown row as a
/// delivery whose cost is missing), and its reason names the kind as read.
enum BulkFuelRejects {
    /// `id:<supplier lower-cased>|<invoice>`: a delivery's key when it has an invoice number.
    static func deliveryKey(supplier: String?, invoice: String) -> String {
        "id:" + (supplier.map { $0.lowercased() + "|" } ?? "") + invoice
    }

    /// `id:<TANK>|<dispense_id>`: a dispense's key when it has the controller's id.
    static func dispenseKey(tank: String, id: String) -> String { "id:\(tank)|\(id)" }

    /// A delivery file's row kind: `delivery` when the column is absent or empty.
    static func deliveryKind(_ row: Row) throws -> String {
        do {
            return try row.choice("kind", FuelDeliveryImporter.kinds) ?? "delivery"
        } catch {
            let raw = ControlText.escaped(row.text("kind") ?? "")
            throw RowError(.badValue, "'kind' is '\(raw)', which is unreadable as a row kind: the row is neither a delivery nor a dip and is not loaded; "
                           + "expected one of: \(FuelDeliveryImporter.kinds.keys.sorted().joined(separator: ", "))")
        }
    }

    static func dispense(_ row: Row) -> RejectedRow? {
        let tank = row.text("tank").flatMap { try? FuelDispenseImporter.tankID($0) }
        let key = tank.flatMap { t in row.text("dispense_id").map { dispenseKey(tank: t, id: $0) } }
        return RejectedRow(table: "fuel_dispense", key: key, amountMinor: nil, currency: nil, at: time(row))
    }

    /// A delivery file's row: a delivery (its key and cost when readable), a dip, or nil when
    /// the kind is unreadable.
    static func delivery(_ row: Row) -> RejectedRow? {
        guard let kind = try? deliveryKind(row) else { return nil }
        guard kind == "delivery" else { return RejectedRow(table: "tank_dip", key: nil, amountMinor: nil, currency: nil, at: time(row)) }
        let currency = (try? row.currencyCode()) ?? row.currency
        let key = row.text("invoice").map { deliveryKey(supplier: row.text("supplier"), invoice: $0) }
        return RejectedRow(table: "tank_delivery", key: key, amountMinor: try? row.money("cost", currency: currency), currency: currency, at: time(row))
    }

    static func time(_ row: Row) -> Int64? { try? row.timestamp(date: "date", time: "time") }
}
