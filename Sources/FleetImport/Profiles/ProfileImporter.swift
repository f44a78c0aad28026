import Foundation
import FleetCore
import FleetWarehouse

/// Reads a file with a mapping profile: the same row loop as every CSV format (`CSVRows`:
/// rejects with reason, location — `line 14` or `Sheet1!C14` — and raw text; duplicate keys;
/// `.xlsx` sheets), each row turned into its target's records (`ProfileRecord`), or for a target a
/// native format reads, put in that format's columns and read by it (`ProfileNativeRows`); sent
/// through the sink, inside the file's one transaction (`FileLoad`, called by `ImportSession`).
/// Not in `ImporterRegistry`: a profile is chosen by its signature or `--profile`, never sniffed.
public struct ProfileImporter: Sendable {
    public let profile: Profile

    public init(profile: Profile) { self.profile = profile }

    /// What the profile's file must be before any row is read: the declared encoding (a
    /// workbook has none), and every mapped column in the header.
    func check(_ input: InputFile, header: [String]) throws {
        if input.sheet == nil {
            let b = [UInt8](input.head.prefix(4))
            let utf16 = b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0xFE, 0xFF])
            switch profile.encoding {
            case .utf16 where !utf16:
                throw FleetError.unreadable(file: input.path, location: nil, reason: "profile \(profile.name) declares UTF-16 but the file has no UTF-16 byte order mark",
                                            hint: "Save the file as UTF-16 with its byte order mark (Excel's \"Unicode Text\"), or correct encoding: in \(profile.path) (line \(profile.lines["encoding"] ?? 1)).")
            case .utf8 where utf16 || input.head.prefix(4096).contains(0):
                throw FleetError.unreadable(file: input.path, location: nil, reason: "profile \(profile.name) declares UTF-8 but the file is UTF-16",
                                            hint: "Write encoding: UTF-16 in \(profile.path), or save the file as UTF-8.")
            default: break
            }
        }
        if let missing = profile.missingColumn(in: header) { throw missing }
    }

    /// The row loop over `input`; `body` gets each row's records.
    private func rows(_ input: InputFile) throws -> CSVRows {
        let native = profile.target.readsNatively
        let columns = native ? ProfileNativeRows.columns(profile) : Dictionary(uniqueKeysWithValues: profile.columns.map { ($0.header, [String]()) })
        var rows = try CSVRows(input, format: profile.formatName, columns: columns, preamble: profile.preamble, constants: profile.constants)
        let present = profile.columns.filter { c in rows.header.index(native ? ProfileNativeRows.column(for: c).name : c.header) != nil }.map(\.header)
        try check(input, header: present + (rows.header.unknown))
        if !profile.skipRows.isEmpty { rows.skipRow = { [profile] in profile.skips($0) } }
        return rows
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        if profile.target.readsNatively {
            var rows = try rows(input)
            rows.convention = .point
            rows.rewrite = ProfileNativeRows.rewriter(profile, header: rows.header, values: ProfileValues(profile: profile, zone: input.zone, workbook: input.sheet != nil))
            switch profile.target {
            case .maintenanceRecords: try MaintenanceImporter.load(&rows, into: &sink)
            case .assets: try AssetsImporter.load(&rows, into: &sink)
            case .drivers: try DriversImporter.load(&rows, into: &sink)
            default: try DVIRImporter.load(&rows, into: &sink)
            }
        } else if profile.target == .fuelPurchases {
            var masking = FuelCardImporter.MaskingSink(base: sink)
            try load(input, into: &masking)
            sink = masking.base
        } else {
            try load(input, into: &sink)
        }
    }

    private func load<S: RecordSink>(_ input: InputFile, into sink: inout S) throws {
        var rows = try rows(input)
        let values = ProfileValues(profile: profile, zone: input.zone, workbook: input.sheet != nil)
        let target = profile.target
        let currencyColumn = profile.column(for: "currency")?.header ?? "\u{1}"
        var fixedCurrency = false
        if let money = profile.columns.first(where: { $0.kind == .money }), case .currency(.some) = money.unit { fixedCurrency = true }
        var assumed = AssumedCurrency()
        rows.salvage = { row in
            guard target == .fuelPurchases || target == .expenses else { return nil }
            let currency = (try? values.currency(row, base: input.currency).code) ?? input.currency
            // The key a corrected re-export of the row would load under (`fuel-card`, `expenses`).
            let id = values.text(row, target == .expenses ? "expense_id" : "transaction_id")
            return RejectedRow(table: target.table, key: id.map { (target == .expenses ? "id:" : "card:") + $0 }, amountMinor: try? values.money(row, target == .expenses ? "amount" : "total", currency: currency),
                               currency: currency, at: try? values.instant(row))
        }
        try rows.forEach(into: &sink) { row, sink in
            let record = try ProfileRecord.of(&row, values: values, fileAsset: input.asset, base: input.currency)
            let file = sink.sourceFileID
            switch record {
            case var .fuel(purchase, asset):
                purchase.assetID = try asset.map { try sink.asset($0) }
                purchase.sourceFileID = file
                try sink.load(purchase)
            case var .expense(expense, asset):
                expense.assetID = try asset.map { try sink.asset($0) }
                expense.sourceFileID = file
                try sink.load(expense)
            case let .meters(readings, asset):
                let id = try sink.asset(asset)
                for var r in readings {
                    (r.assetID, r.sourceFileID) = (id, file)
                    try sink.load(r)
                }
            case var .position(position, asset):
                (position.assetID, position.sourceFileID) = (try sink.asset(asset), file)
                try sink.load(position)
            case let .totals(totals, asset):
                let id = try sink.asset(asset)
                for var t in totals {
                    (t.assetID, t.sourceFileID) = (id, file)
                    try sink.load(t)
                }
            }
            if !fixedCurrency, target == .fuelPurchases || target == .expenses { assumed.count(row, column: currencyColumn) }
        }
        assumed.note(into: &sink, base: input.currency)
    }
}
