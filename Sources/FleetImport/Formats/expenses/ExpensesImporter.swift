import Foundation
import FleetCore
import FleetWarehouse

/// Costs that are neither card fuel nor maintenance records: tolls, insurance, leases,
/// registrations, tires, parts… (`expenses.csv`, from an accounting or expense tool).
///
/// A row may name a vehicle by unit number or VIN; one that names none stays unassigned
/// (`asset_id` NULL), because it is still a real cost that reports show as "unassigned" (docs/FORMATS.md, "Identity").
///
/// The natural key `expense.source_key`:
/// - `id:<expense_id>` when the row has an id of the exporting system (expense id, reference,
///   voucher…), and `id:<vendor>|<invoice_number>` for an invoice number, which is unique per
///   vendor only. A re-export that corrects the amount or category then updates the row in place.
/// - Otherwise a key from the row's content, `row:<time>|<unit or VIN>|<category>|<amount> <currency>|<vendor>`.
///   Re-importing an overlapping export is then a no-op, never a double count. The price: a
///   corrected amount reads as a new expense, and two identical expenses in one file cannot be
///   told from a duplicated row, so the second is rejected (`duplicate_key`) with a message
///   asking for an id column.
public struct ExpensesImporter: Importer {
    public static let format = "expenses"
    public static let summary = "Costs by category (tolls, insurance, lease, tires, parts…) per vehicle or unassigned (CSV)"
    public static let example = "expenses.csv"

    static let columns: [String: [String]] = [
        "expense_id": ["id", "expense_number", "expense_no", "expense_ref", "reference", "reference_number", "ref", "document_number", "voucher_number", "entry_id"],
        "invoice_number": ["invoice", "invoice_no", "invoice_id", "invoice_ref", "bill_number", "receipt_number"],
        "date": ["expense_date", "invoice_date", "transaction_date", "purchase_date", "date_incurred", "incurred_on", "incurred_at", "date_time", "datetime", "timestamp"],
        "time": ["expense_time", "time_of_day"],
        "category": ["expense_category", "expense_type", "cost_category", "cost_type", "category_name"],
        "amount": ["expense_amount", "total", "total_amount", "amount_total", "gross_amount", "cost"],
        "currency": ["currency_code", "ccy", "curr"],
        "vendor": ["vendor_name", "supplier", "supplier_name", "payee", "merchant", "merchant_name"],
        "description": ["memo", "notes", "note", "details", "comment", "comments", "line_description"],
        "unit_number": ["unit", "unit_no", "unit #", "vehicle_number", "vehicle_no", "asset_number", "asset_no", "fleet_number"],
        "vin": ["vehicle_identification_number"],
        "vehicle_name": ["vehicle", "asset", "asset_name", "vehicle_description"],
    ]
    static let required = ["date", "category", "amount"]

    /// The schema's categories and the spellings read as each (matched case-, space-, '-' and
    /// '_'-insensitively, never by substring: an unlisted word is a reject, not a guess).
    static let categories: [String: [String]] = [
        "fuel": ["fuel purchase", "fuel cost", "fueling", "fuelling", "diesel", "gasoline", "petrol", "gas"],
        "maintenance": ["service", "servicing", "preventive maintenance", "preventative maintenance", "pm", "scheduled maintenance", "oil change"],
        "repair": ["repairs", "breakdown", "body work", "accident repair", "mechanical repair"],
        "tires": ["tire", "tyre", "tyres"],
        "parts": ["part", "spare parts", "spares"],
        "tolls": ["toll", "road toll", "road tolls", "toll road", "e-zpass", "ez pass"],
        "insurance": ["insurance premium", "vehicle insurance"],
        "lease": ["leasing", "lease payment", "rental", "rent", "vehicle rental"],
        "registration": ["registration fee", "registration fees", "licence", "license", "licensing", "vehicle tax", "road tax", "permit", "permits", "plates"],
        "other": ["misc", "miscellaneous", "others", "sundry", "general"],
    ]

    public init() {}

    /// A date, a category and an amount; a file that also names a service type is a maintenance
    /// export (whose category column means something else), not an expense file.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let fields = CSVReader.firstRecord(head),
              CSVHeader(fields, aliases: ["service_type": MaintenanceImporter.columns["service_type"]!]).index("service_type") == nil
        else { return .no }
        return CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required)
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        var assumed = AssumedCurrency()
        rows.salvage = { row in
            let currency = (try? row.currencyCode()) ?? row.currency
            let key = row.text("expense_id").map { "id:" + $0 }
                ?? row.text("invoice_number").map { "id:" + (row.text("vendor").map { $0.lowercased() + "|" } ?? "") + $0 }
            return RejectedRow(table: "expense", key: key, amountMinor: try? row.money("amount", currency: currency), currency: currency,
                               at: try? row.timestamp(date: "date", time: "time"))
        }
        try rows.forEach(into: &sink) { row, sink in
            guard let at = try row.timestamp(date: "date", time: "time") else {
                throw RowError(.missingField, "'date' is empty; every expense needs the date it was incurred (YYYY-MM-DD)")
            }
            let category = try RowHints.adding("use 'other' for a cost outside these categories") { try row.choice("category", Self.categories) }
            guard let category else {
                throw RowError(.missingField, "'category' is empty; give one of \(Self.categories.keys.sorted().joined(separator: ", "))")
            }
            let currency = try row.currencyCode()
            guard let amount = try RowHints.adding(RowHints.amount(currency), { try row.money("amount", currency: currency) }) else {
                throw RowError(.missingField, "'amount' is empty; an expense without an amount cannot be costed")
            }
            let vendor = row.text("vendor")
            let unit = row.text("unit_number")
            let vin = try row.vin("vin")

            let key = try Self.uniqueKey(&row, expenseID: row.text("expense_id"), invoice: row.text("invoice_number"), vendor: vendor, at: at,
                                         unit: unit, vin: vin, category: category, amount: amount, currency: currency)

            let assetID = unit != nil || vin != nil ? try sink.asset(AssetRef(vin: vin, unitNumber: unit)) : nil
            try sink.load(Expense(sourceKey: key, assetID: assetID, unitHint: row.text("vehicle_name"), at: at, category: category,
                                  amountMinor: amount, currency: currency, currencyAssumed: AssumedCurrency.isAssumed(row),
                                  vendor: vendor, description: row.text("description"), sourceFileID: sink.sourceFileID))
            assumed.count(row)
        }
        assumed.note(into: &sink, base: input.currency)
    }

    /// The natural key of an expense (see the type's comment), registered in the file's key
    /// ledger so that a second row with it is a `duplicate_key` reject. Every reader of expense
    /// rows (this format, mapping profiles) keys them so: one expense read by both is one row.
    static func uniqueKey(_ row: inout Row, expenseID: String?, invoice: String?, vendor: String?, at: Int64, unit: String?, vin: String?,
                          category: String, amount: Int64, currency: String) throws -> String {
        if let id = expenseID {
            let key = "id:" + id
            try row.unique(key, "expense id \(id)")
            return key
        }
        if let invoice {
            let key = "id:" + (vendor.map { $0.lowercased() + "|" } ?? "") + invoice
            try row.unique(key, "invoice \(invoice)" + (vendor.map { " of \($0)" } ?? ""))
            return key
        }
        let key = ["row:" + Timestamp.iso(at), unit?.uppercased() ?? vin ?? "", category, "\(amount) \(currency)", vendor?.lowercased() ?? ""]
            .joined(separator: "|")
        try RowHints.adding("if they really are two expenses, add an expense_id or invoice_number column so that they can be told apart") {
            try row.unique(key, "an expense with the same date, vehicle, category, amount and vendor")
        }
        return key
    }


}
