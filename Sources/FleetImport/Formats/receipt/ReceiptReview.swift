import Foundation
import GRDB
import FleetCore
import FleetOCR
import FleetWarehouse

/// The receipts waiting for a person, and what a person decides about them (`fleetkit review`).
///
/// A receipt is listed while a field it needs (total, date, and for fuel the volume) is missing
/// or doubtful, or while its currency is only the fleet's because none was printed. Accepting a
/// field keeps the value read; fixing it keeps the value typed. Either is stored against the
/// image's content hash (`receipt_correction`, with who and when and the old value), and the
/// receipt is loaded again from what was stored at import, in one transaction, by the
/// importer's own rules: once nothing it needs is doubtful, its fuel purchase loses
/// `needs_review` or its expense is loaded, and its `needs_review` reject goes.
public struct ReceiptReview {
    public let warehouse: Warehouse

    public init(warehouse: Warehouse) { self.warehouse = warehouse }

    /// One field a person should look at.
    public struct Field: Codable, Equatable, Sendable {
        public var field: String
        /// The value read (after earlier corrections); nil when nothing was read.
        public var value: String?
        public var confidence: Double?
        /// The OCR line it came from, 1-based, and its masked text.
        public var line: Int?
        public var lineText: String?
        /// What is wrong: `missing`, `doubtful (45%)`, `currency not printed: the fleet's`.
        public var problem: String
        /// Whether the receipt stays under review until this field is accepted or fixed.
        public var required: Bool
    }

    /// One receipt under review.
    public struct Receipt: Codable, Equatable, Sendable {
        /// The source file id (as `fleetkit status` and `rejects --file` show it).
        public var receipt: Int64
        public var image: String
        public var sha256: String
        public var kind: String
        /// `fuel purchase loaded, flagged`, or `not loaded`.
        public var state: String
        public var fields: [Field]
    }

    /// What a person does to one field.
    public enum Change: Sendable, Equatable {
        case accept(String)
        case fix(String, String)
        var field: String { switch self { case let .accept(f), let .fix(f, _): return f } }
    }

    /// Receipts with a `needs_review` reject but nothing kept for review: imported before
    /// migration v9-receipt-review, whose fields were not kept. `fleetkit rejects` shows them;
    /// only importing the image into a new warehouse lists them here.
    public func unlisted() throws -> [String] {
        try warehouse.pool.read { db in
            let kept = try db.tableExists("receipt_read")
            return try String.fetchAll(db, sql: """
                SELECT DISTINCT f.path FROM reject j JOIN source_file f ON f.id = j.source_file_id
                WHERE j.reason = ? AND f.format = 'receipt'
                """ + (kept ? " AND NOT EXISTS (SELECT 1 FROM receipt_read r WHERE r.source_file_id = f.id)" : "") + " ORDER BY f.id",
                arguments: [ReceiptImporter.needsReview.rawValue])
        }
    }

    /// Every receipt under review, by source file id.
    public func list() throws -> [Receipt] {
        try warehouse.pool.read { db in
            // A warehouse opened read-only before any import migrated it to v7 keeps no review state yet.
            guard try db.tableExists("receipt_read") else { return [] }
            return try Int64.fetchAll(db, sql: "SELECT source_file_id FROM receipt_read WHERE needs_review = 1 OR currency_source = 'fleet' ORDER BY source_file_id")
                .compactMap { try Self.receipt(db, id: $0) }
        }
    }

    /// One receipt as `list` shows it, or nil when nothing about it needs review.
    static func receipt(_ db: Database, id: Int64) throws -> Receipt? {
        guard let r = try ReceiptReviewStore.reading(db, sourceFileID: id) else { return nil }
        let required = ReceiptFieldText.required(isFuel: r.isFuel)
        var fields: [Field] = []
        for name in ReceiptFieldText.editable {
            let v = r[name]
            let isRequired = required.contains(name)
            var problem: String?
            if let v {
                if v.confidence < ReceiptFields.reviewThreshold { problem = "doubtful (\(Int((v.confidence * 100).rounded()))%)" }
                if name == "currency", r.currencySource == ReceiptFields.CurrencySource.fleet.rawValue { problem = "not printed: the fleet's currency" }
            } else if isRequired || name == "merchant" {
                problem = "missing"
            }
            guard let problem else { continue }
            fields.append(Field(field: name, value: v?.value, confidence: v?.confidence, line: v?.line, lineText: v?.lineText,
                                problem: problem, required: isRequired))
        }
        let loaded = try Bool.fetchOne(db, sql: r.isFuel ? "SELECT EXISTS (SELECT 1 FROM fuel_purchase WHERE source_key = ?)"
                                                         : "SELECT EXISTS (SELECT 1 FROM expense WHERE source_key = ?)",
                                       arguments: ["receipt:" + r.contentSHA256]) ?? false
        let state = !loaded ? "not loaded" : r.needsReview ? "loaded, flagged needs_review" : "loaded"
        guard r.needsReview || fields.contains(where: { $0.field == "currency" }) else { return nil }
        // The nightly job moves an image to its archive and records the new path on its source file.
        let image = try String.fetchOne(db, sql: "SELECT path FROM source_file WHERE id = ?", arguments: [id]) ?? r.imagePath
        return Receipt(receipt: id, image: image, sha256: r.contentSHA256, kind: r.isFuel ? "fuel" : "expense", state: state, fields: fields)
    }

    /// Records `changes` (none: accept every listed field that was read) to one receipt by
    /// `person` and loads it again. Returns the receipt as
    /// `list` shows it afterwards, nil when it no longer needs review.
    ///
    /// Throws `FleetError.invalidArgument` (a usage error) for an unknown receipt (with close
    /// matches), an unknown field, a field with nothing to accept, or a value the strict
    /// parsers refuse (with what was wrong); nothing is stored then.
    public func apply(_ receiptID: String, _ changes: [Change], by person: String) throws -> Receipt? {
        // The reviewed receipt loads through the one file load, with the stored settings: its
        // derivations (the fuel-card link, the daily rollup) follow as after an import of it, and
        // a closed month it changes is restated in the ledger by the person, never in silence.
        var load = FileLoad(warehouse: warehouse)
        load.allowRestatement = true
        load.actor = person
        return try load.reload(find: { db in try Self.resolve(receiptID, in: db) }) { context, sink in
            let db = context.db, id = context.sourceFileID
            let currency = context.settings.currency
            guard let reading = try ReceiptReviewStore.reading(db, sourceFileID: id) else { throw try Self.unknown(receiptID, in: db) }
            var fields: ReceiptFields
            do { fields = try ReceiptFieldText.fields(of: reading) } catch {
                throw FleetError.warehouse(path: warehouse.path, reason: "receipt \(id) has a stored field that does not read back: \(error)",
                                           hint: "Import the image again into a new warehouse, or report this as a bug.")
            }
            let now = Timestamp.now()
            let latestData = try Int64.fetchOne(db, sql: "SELECT max(m) FROM (SELECT max(at) AS m FROM fuel_purchase UNION ALL SELECT max(at) FROM expense)")
            var changes = changes
            if changes.isEmpty {
                // Accept without fields: every listed field that was read and decides review.
                let listed = try Self.receipt(db, id: id)?.fields ?? []
                changes = listed.filter { $0.value != nil && ($0.required || $0.field == "currency") }.map { .accept($0.field) }
                guard !changes.isEmpty else {
                    let missing = listed.filter { $0.required }.map(\.field)
                    throw FleetError.invalidArgument(name: "RECEIPT", value: receiptID, hint: missing.isEmpty
                        ? "receipt \(id) needs no review"
                        : "nothing was read to accept on receipt \(id): \(missing.joined(separator: ", ")) missing; type it with `fleetkit review fix \(id) \(missing[0]) VALUE`")
                }
            }
            for change in changes {
                let name = change.field
                guard ReceiptFieldText.editable.contains(name) else {
                    throw FleetError.invalidArgument(name: "FIELD", value: name, hint: "a receipt field is one of \(ReceiptFieldText.editable.joined(separator: ", "))")
                }
                let old = ReceiptFieldText.values(of: fields).first { $0.field == name }?.value
                let typed: String
                switch change {
                case .accept:
                    guard let old else {
                        throw FleetError.invalidArgument(name: "FIELD", value: name,
                                                         hint: "nothing was read for \(name) on receipt \(id), so there is nothing to accept; type it with `fleetkit review fix \(id) \(name) VALUE`")
                    }
                    typed = old
                case let .fix(_, value): typed = value
                }
                do {
                    try ReceiptFieldText.set(name, typed, currency: fields.currency?.value ?? currency, confidence: 1,
                                             line: ReceiptFieldText.line(of: name, in: fields), on: &fields, latestData: latestData)
                } catch let error as ReceiptFieldText.Invalid {
                    throw FleetError.invalidArgument(name: name, value: typed, hint: error.reason)
                }
                let canonical = ReceiptFieldText.values(of: fields).first { $0.field == name }!.value
                let action: String
                switch change { case .accept: action = "accept"; case .fix: action = "fix" }
                try ReceiptReviewStore.addCorrection(ReceiptCorrection(field: name, action: action, oldValue: old, newValue: canonical,
                                                                       correctedBy: person, correctedAt: now), sha256: reading.contentSHA256, in: db)
            }
            try db.execute(sql: "DELETE FROM reject WHERE source_file_id = ? AND reason = ?", arguments: [id, ReceiptImporter.needsReview.rawValue])
            let input = InputFile(url: URL(fileURLWithPath: reading.imagePath), head: Data(),
                                  asset: reading.assetUnit.map { AssetRef(unitNumber: $0) }, zone: context.settings.zone, currency: currency)
            try ReceiptImporter.loadReviewed(fields, sha256: reading.contentSHA256, input: input, into: &sink)
            return try Self.receipt(db, id: id)
        }.0
    }

    /// Every accept and fix of the receipt's image, oldest first.
    public func history(_ receiptID: String) throws -> [ReceiptCorrection] {
        try warehouse.pool.read { db in
            let id = try Self.resolve(receiptID, in: db)
            guard let sha = try String.fetchOne(db, sql: "SELECT content_sha256 FROM receipt_read WHERE source_file_id = ?", arguments: [id]) else { return [] }
            return try ReceiptReviewStore.history(db, sha256: sha)
        }
    }

    /// A receipt by its source file id, its image's file name, or a prefix (8 or more hex
    /// digits) of its content hash.
    static func resolve(_ text: String, in db: Database) throws -> Int64 {
        if let id = Int64(text), try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM receipt_read WHERE source_file_id = ?)", arguments: [id]) == true {
            return id
        }
        let rows = try GRDB.Row.fetchAll(db, sql: """
            SELECT r.source_file_id, COALESCE(f.path, r.image_path), r.content_sha256, r.image_path
            FROM receipt_read r LEFT JOIN source_file f ON f.id = r.source_file_id ORDER BY r.source_file_id
            """)
        let byName = rows.filter { row in
            [row[1], row[3]].contains { (path: String) in URL(fileURLWithPath: path).lastPathComponent == text || path == text }
        }
        let byHash = text.count >= 8 ? rows.filter { ($0[2] as String).hasPrefix(text.lowercased()) } : []
        let found = Set((byName + byHash).map { $0[0] as Int64 })
        if found.count == 1 { return found.first! }
        if found.count > 1 {
            throw FleetError.invalidArgument(name: "RECEIPT", value: text,
                                             hint: "it names \(found.count) receipts (\(found.sorted().map(String.init).joined(separator: ", "))); give the receipt number from `fleetkit review list`")
        }
        throw try unknown(text, in: db)
    }

    static func unknown(_ text: String, in db: Database) throws -> UnknownReceipt {
        let rows = try GRDB.Row.fetchAll(db, sql: """
            SELECT r.source_file_id, COALESCE(f.path, r.image_path) FROM receipt_read r LEFT JOIN source_file f ON f.id = r.source_file_id
            ORDER BY r.source_file_id
            """)
        return UnknownReceipt(value: text, candidates: rows.map { String($0[0] as Int64) } + rows.map { URL(fileURLWithPath: $0[1]).lastPathComponent })
    }

    /// No receipt has this number, image name or hash. `candidates` are every receipt's number
    /// and image name, for the command line's "did you mean" list: a usage error.
    public struct UnknownReceipt: Error, CustomStringConvertible {
        public var value: String
        public var candidates: [String]
        public var description: String { "no receipt has the number, image name or hash '\(value)'" }
    }
}
