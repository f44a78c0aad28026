import Foundation
import FleetCore
import FleetWarehouse
import FleetOCR

/// Receipt photos and scans (PNG, JPEG, TIFF), read with Tesseract (`FleetOCR`): a fuel receipt
/// becomes a `fuel_purchase` (`origin = 'receipt'`), any other receipt an `expense`.
///
/// - **Key.** `receipt:<sha256 of the image>`: the same image imported again changes nothing.
/// - **Asset.** `--asset` or the unit folder (`inbox/receipts/T-12/…`, docs/FORMATS.md "Identity"); else the unit
///   number printed on the receipt when it names a known asset (OCR text never creates an
///   asset); else unassigned, with the number read kept in `unit_hint`.
/// - **Review.** A receipt whose total, date or (fuel) volume is missing or doubtful is listed as
///   a `needs_review` reject with the masked OCR text. A fuel receipt is also loaded, with
///   `needs_review = 1` (its total counted if read, listed but not summed if not, docs/METRICS.md "Receipts and card transactions"),
///   unless it has no date, which a purchase cannot be stored without. An expense is loaded only
///   when sure: its table has no review flag. Values are never invented. What was read is kept
///   field by field with its OCR line (`receipt_read`, `receipt_field`) for `fleetkit review`,
///   whose accepted and fixed values (`receipt_correction`, by the image's hash) are applied
///   before loading, so a person's correction holds whenever the same image is read.
/// - **Card numbers** are kept as their last four digits; OCR text is stored masked.
/// - **Links.** `FuelPurchaseLinker` links a receipt to the card transaction (of the same total,
///   or the same fill at another total) or the earlier image of the same purchase.
public struct ReceiptImporter: PrereadingImporter {
    public static let format = "receipt"
    public static let summary = "Receipt photos and scans (PNG, JPEG, TIFF) read by OCR: fuel receipts become fuel purchases, others expenses; doubtful ones go to review"
    public static let example = "receipt-2026-10-14-shell.jpg"

    static let needsReview: Issue.Reason = "needs_review"

    public init() {}

    /// PNG, JPEG and TIFF by their magic bytes. A PDF or HEIC photo is claimed weakly, so that it
    /// fails with a message saying what to convert it to instead of "format not recognised".
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        if OCRImage.rasterFormat(head) != nil { return .high }
        if OCRImage.otherFormat(head) != nil { return .low }
        return .no
    }

    /// Receipts are read by as many threads as `OCRPool.shared` has engines (one per core, within memory).
    public static var prereadWorkers: Int { OCRPool.shared.workers }

    /// What OCR read of one image and its content hash: the costly part (0.3–3 s of CPU for a
    /// photo), done without the warehouse so a folder's receipts are read several at a time
    /// (`PrereadingImporter`).
    public struct Reading: Sendable {
        public var fields: ReceiptFields
        public var sha256: String
    }

    public static func preread(_ input: InputFile) throws -> Reading {
        let result: OCRResult
        do {
            // Read until the fields the import needs are sure, not until the text looks clean
            // (`ReceiptReadingJudge`; docs/FORMATS.md, "Reading until the fields are sure").
            let judge = ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: input.currency, now: Date(), fleetZone: input.zone.timeZone.identifier))
            result = try OCRPool.shared.withEngine { try OCRPipeline().read(contentsOf: input.source.path, engine: $0, judge: judge) }
        } catch let error as OCRImage.Error {
            throw FleetError.unreadable(file: input.path, location: nil, reason: Self.reason(error),
                                        hint: "Receipts are read from PNG, JPEG or TIFF images of at most \(OCRImage.defaultMaxPixels / 1_000_000) MP (a larger JPEG is read at a reduced size) that decode within \(OCRImage.maxDecodeBytes / 1_000_000) MB.")
        }
        if let n = result.inkComponents {
            throw FleetError.unreadable(file: input.path, location: nil,
                                        reason: "the image is \(Self.count(n)) separate specks of ink (noise, a halftone or dither pattern), more than the \(Self.count(OCREngine.maxInkComponents)) OCR reads within its memory budget",
                                        hint: "Rescan the receipt in greyscale without dithering, or photograph it.")
        }
        if let n = result.tallEdges {
            throw FleetError.unreadable(file: input.path, location: nil,
                                        reason: "the image has ink shapes taller than a text line with \(Self.count(n)) edge steps (a pattern of lines, not text), more than the \(Self.count(OCREngine.maxTallEdges)) OCR reads within its memory budget",
                                        hint: "Rescan or photograph the receipt on its own, without a patterned background.")
        }
        let fields = ReceiptExtractor(defaultCurrency: input.currency, now: Date(), fleetZone: input.zone.timeZone.identifier).extract(result)
        return Reading(fields: fields, sha256: try SHA256.hex(ofFile: input.source))
    }

    public func read(_ input: InputFile, reading: Reading, into sink: inout some RecordSink) throws {
        let fields = reading.fields
        do {
            try sink.atomically { sink in try Self.loadReviewed(fields, sha256: reading.sha256, input: input, into: &sink) }
        } catch let error as RowError {
            // An identity conflict of --asset, say: the receipt is kept as a reject, not lost.
            try sink.reject(error.issue(at: "image", raw: String(fields.maskedText.prefix(Issue.rawLimit))))
        }
    }

    /// Applies what a person accepted or fixed for this image (`fleetkit review`, keyed by its
    /// content hash, so a correction is kept whenever the same image is read again), keeps the
    /// fields with their OCR lines for review, then loads (`load`).
    static func loadReviewed(_ read: ReceiptFields, sha256: String, input: InputFile, into sink: inout some RecordSink) throws {
        var fields = read
        let corrections = try sink.receiptCorrections(sha256: sha256)
        do { try ReceiptFieldText.apply(corrections, to: &fields) } catch {
            // Only values the strict parsers accepted are stored; one that no longer parses (a
            // date now beyond the window, say) is named rather than silently dropped.
            throw FleetError.unreadable(file: input.path, location: "image", reason: "the stored review correction \(error)",
                                        hint: "Fix the field again with `fleetkit review fix`.")
        }
        if corrections["currency"] != nil { fields.currencySource = nil }
        // A total with more decimals than its currency has (read as 204.90, then the currency
        // fixed to JPY) cannot be stored: it is doubtful, never rounded into a figure.
        if let total = fields.total, total.value.scaled(to: Money.minorDigits(fields.currency?.value ?? input.currency)) == nil {
            fields.total?.confidence = 0
            fields.notes.append("total \(total.value) has more decimals than \(fields.currency?.value ?? input.currency)")
        }
        let kept = ReceiptRead.rows(of: ReceiptReading(
            contentSHA256: sha256, imagePath: input.path, isFuel: fields.isFuel, category: fields.category, spendKind: fields.spendKind,
            assetUnit: input.asset?.unitNumber, currencySource: corrections["currency"] != nil ? "review" : fields.currencySource?.rawValue,
            totalCheck: fields.totalCheck?.rawValue, maskedText: fields.maskedText, needsReview: !fields.doubtful.isEmpty,
            fields: ReceiptFieldText.values(of: fields)), sourceFileID: sink.sourceFileID)
        try sink.load(kept.read)
        for field in kept.fields { try sink.load(field) }
        try load(fields, key: "receipt:" + sha256, input: input, into: &sink)
    }

    /// Loads what was read from one receipt, or lists it for review (the rules above).
    static func load(_ fields: ReceiptFields, key: String, input: InputFile, into sink: inout some RecordSink) throws {
        let raw = String(fields.maskedText.prefix(Issue.rawLimit))
        let doubtful = fields.doubtful
        let location = "image"

        var assetID: Int64? = nil
        if let ref = input.asset {
            assetID = try sink.asset(ref)
        } else if let unit = fields.unitNumber?.value {
            assetID = try sink.findAsset(AssetRef(unitNumber: unit))
        }
        let unitHint = assetID == nil ? fields.unitNumber?.value : nil
        let currency = fields.currency?.value ?? input.currency
        let digits = Money.minorDigits(currency)
        let total = fields.total.flatMap { $0.value.scaled(to: digits) }
        let read = describe(fields, currency: currency)

        guard let date = fields.date?.value else {
            try sink.reject(Issue(needsReview, at: location, "the receipt's date could not be read (\(doubtful.joined(separator: ", "))); "
                                  + "nothing was loaded. Read: \(read). Enter it by hand or rescan the receipt", raw: raw))
            return
        }
        // A printed time the clocks skipped names no instant (LocalTime): held for review, never shifted.
        if let t = fields.time?.value {
            let local = Int64(date.daysSinceEpoch) * 86_400_000 + Int64(t.hour * 3600 + t.minute * 60 + t.second) * 1000
            if !Timestamp.exists(local: local, in: input.zone.timeZone) {
                try sink.reject(Issue(needsReview, at: location, "the printed time " + LocalTime.skippedReason("\(date) \(t)", local: local, zone: input.zone.timeZone)
                                      + "; nothing was loaded. Read: \(read). Fix the time with `fleetkit review fix`", raw: raw))
                return
            }
        }
        let at = instant(date, fields.time?.value, zone: input.zone)
        let merchant = fields.merchant.map { masked($0.value) }

        if fields.isFuel {
            let volume = fields.volume?.value
            let pricePerLitre = fields.unitPrice.map { p -> Double in
                p.value.double * pow(10, Double(digits)) * Units.millilitresPerLitre / (volume?.unit ?? .litre).millilitres
            }
            try sink.load(FuelPurchase(sourceKey: key, origin: "receipt", assetID: assetID, unitHint: unitHint, at: at, merchant: merchant,
                                       volumeMl: volume?.millilitres, unitPriceMinorPerL: pricePerLitre, totalMinor: total, currency: currency,
                                       fuelGrade: fields.fuelGrade?.value, merchantCountry: fields.locale?.country,
                                       odometerM: fields.odometer?.value.metres, odometerEntered: fields.odometer.map { Self.printed($0.value.value) },
                                       odometerEnteredUnit: fields.odometer?.value.unit, cardLast4: fields.cardLast4?.value,
                                       ocrConfidence: (fields.confidence * 1000).rounded() / 10, needsReview: !doubtful.isEmpty,
                                       sourceFileID: sink.sourceFileID))
            if !doubtful.isEmpty {
                try sink.reject(Issue(needsReview, at: location, "fuel receipt loaded with needs_review = 1: \(doubtful.joined(separator: ", ")). "
                                      + "Read: \(read). \(total == nil ? "Without a total it is listed but not counted; " : "")check the image", raw: raw))
            }
            return
        }
        guard doubtful.isEmpty, let total else {
            try sink.reject(Issue(needsReview, at: location, "receipt not loaded: \(doubtful.joined(separator: ", ")). Read: \(read). "
                                  + "Expenses are loaded only when their total and date are sure; enter it by hand or rescan the receipt", raw: raw))
            return
        }
        try sink.load(Expense(sourceKey: key, assetID: assetID, unitHint: unitHint, at: at, category: fields.category, amountMinor: total,
                              currency: currency, vendor: merchant, description: "receipt " + input.name + (fields.spendKind.map { " (\($0))" } ?? ""), sourceFileID: sink.sourceFileID))
    }

    /// Local date and time on the slip, in the fleet time zone, as UTC milliseconds. Without a
    /// printed time, local midnight of the printed date.
    static func instant(_ date: CivilDate, _ time: ReceiptFields.ClockTime?, zone: FleetZone) -> Int64 {
        let seconds = Int64((time?.hour ?? 0) * 3600 + (time?.minute ?? 0) * 60 + (time?.second ?? 0))
        return Timestamp.utc(fromLocal: Int64(date.daysSinceEpoch) * 86_400_000 + seconds * 1000, in: zone.timeZone)
    }

    /// What was read, for the review message: each field with its confidence.
    static func describe(_ f: ReceiptFields, currency: String) -> String {
        func pct(_ c: Double) -> String { "\(Int((c * 100).rounded()))%" }
        var parts: [String] = []
        if let m = f.merchant { parts.append("merchant '\(Self.masked(m.value))'") }
        if let d = f.date { parts.append("date \(d.value) (\(pct(d.confidence)))") }
        if let t = f.time { parts.append("time \(t.value)") }
        if let t = f.total { parts.append("total \(t.value) \(currency) (\(pct(t.confidence)))") }
        if let v = f.volume { parts.append("volume \(v.value.amount) \(v.value.unit.rawValue) (\(pct(v.confidence)))") }
        if let p = f.unitPrice { parts.append("unit price \(p.value)") }
        if let c = f.computedTotal { parts.append(String(format: "price × volume %.2f", c)) }
        guard !parts.isEmpty else { return "no receipt fields (not a receipt, or unreadable)" }
        if let s = f.currencySource { parts.append("currency from \(s.rawValue)") }
        if f.total != nil { parts.append(f.totalCheck.map { "total confirmed by \($0.rawValue)" } ?? "total unconfirmed") }
        parts += f.notes.prefix(4)
        return parts.isEmpty ? "no receipt fields (not a receipt, or unreadable)" : parts.joined(separator: ", ")
    }

    /// "5.8 million", "300,000": a count as a person reads it in a message.
    static func count(_ n: Int) -> String {
        if n >= 1_000_000 { return String(format: "%.1f million", Double(n) / 1e6) }
        return n >= 1000 ? "\(n / 1000),\(String(format: "%03d", n % 1000))" : "\(n)"
    }

    /// Card numbers in free text (a merchant line can carry one) keep their last four digits.
    static func masked(_ text: String) -> String { FuelCardImporter.maskCardNumbers(text) }

    static func reason(_ error: OCRImage.Error) -> String {
        switch error {
        case .empty: return "the file is empty"
        case let .unsupported(_, format): return "a \(format) file, not a PNG, JPEG or TIFF image" + (format == "PDF" ? "; export the page as PNG or JPEG (e.g. `pdftoppm -r 300 -png`)" : "; save it as JPEG or PNG")
        case let .tooLarge(_, w, h, limit): return "\(w) × \(h) pixels is over the \(limit / 1_000_000) MP limit for one receipt (memory stays bounded); scan at 300 dpi or downscale it"
        case let .tooLargeToDecode(_, w, h, bytes, limit):
            return OCRImage.Error.tooLargeToDecodeReason(width: w, height: h, bytes: bytes, maxBytes: limit)
        case let .textChunks(_, bytes):
            return "the PNG carries text chunks (metadata, not the image) that could take \(bytes / 1_000_000) MB to read, more than one receipt may use; save the image again without metadata"
        case let .cannotRead(_, reason): return "the file cannot be read (\(reason)); check that it is a readable file and import it again"
        case .unreadable, .writeFailed: return "not a PNG, JPEG or TIFF image that can be decoded, or the file is damaged"
        }
    }
}

extension ReceiptImporter {
    /// An odometer as printed: whole units without decimals (`109350`), else one decimal.
    static func printed(_ value: Double) -> String {
        if value == value.rounded(), let whole = Checked.int64(value) { return String(whole) }
        return String(format: "%.1f", value)
    }
}
