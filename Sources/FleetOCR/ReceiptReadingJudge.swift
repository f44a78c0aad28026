/// Judges OCR readings of a receipt by the fields `ReceiptExtractor` reads from them: a reading
/// is settled when its total, date and (fuel) volume are all sure, which is exactly when the
/// importer loads the receipt without review (`ReceiptFields.doubtful`).
///
/// Between two readings, the one with fewer doubtful or missing fields wins, counting the volume
/// for both when either sees a fuel sale (a reading that lost the fuel line must not win by
/// turning a fuel slip into an expense); then the higher field confidences, weakest first; then the
/// higher mean word confidence. Every comparison rests on fields a second printed line
/// confirmed (`ReceiptExtractor`'s cross-checks), so preferring a reading never makes a value
/// sure that was not confirmed in it.
public struct ReceiptReadingJudge: OCRReadingJudge, Sendable {
    public var extractor: ReceiptExtractor

    public init(extractor: ReceiptExtractor) { self.extractor = extractor }

    public func isSettled(_ reading: OCRResult) -> Bool {
        extractor.extract(reading).doubtful.isEmpty
    }

    public func linesToReread(_ reading: OCRResult) -> [Int] {
        extractor.linesToReread(reading)
    }

    /// The language of the script OSD found when it is not Latin (a Japanese slip read with the
    /// English model gives no words to tell its country by), then the language of the receipt's
    /// country as the reading's own evidence settles it, else the fleet's (`ReceiptLocale.ocrLanguage`);
    /// none when that evidence disagrees or names an English-speaking country.
    /// Nothing when total, date and (fuel) volume are sure already: the slip is unsettled for a
    /// reason no reading mends (a prepaid chit says it is not a receipt).
    public func languages(for reading: OCRResult) -> [String] {
        let fields = extractor.extract(reading)
        guard Self.doubtful(fields, fuel: fields.isFuel) > 0 else { return [] }
        var out: [String] = []
        if let script = reading.script, let language = Self.scriptLanguages[script] { out.append(language) }
        if let locale = fields.locale, !locale.ocrLanguage.contested, let language = locale.ocrLanguage.value,
           language != "eng", !out.contains(language) { out.append(language) }
        return out
    }

    /// OSD's script names (Tesseract's `osd.traineddata`) and the language read for each; Latin
    /// is every European language and is left to the receipt's country.
    static let scriptLanguages = ["Japanese": "jpn", "Katakana": "jpn", "Hiragana": "jpn", "Han": "chi_sim", "Hangul": "kor",
                                  "Cyrillic": "rus", "Arabic": "ara", "Thai": "tha", "Greek": "ell", "Devanagari": "hin"]

    public func prefers(_ a: OCRResult, over b: OCRResult) -> Bool {
        let fa = extractor.extract(a), fb = extractor.extract(b)
        let fuel = fa.isFuel || fb.isFuel
        let (da, db) = (Self.doubtful(fa, fuel: fuel), Self.doubtful(fb, fuel: fuel))
        if da != db { return da < db }
        let (ca, cb) = (Self.confidences(fa, fuel: fuel), Self.confidences(fb, fuel: fuel))
        if ca != cb { return ca.lexicographicallyPrecedes(cb, by: >) }
        return a.meanConfidence > b.meanConfidence
    }

    /// Total, date and, on a fuel slip, volume: how many are missing or under the review threshold.
    static func doubtful(_ f: ReceiptFields, fuel: Bool) -> Int {
        let parts = [f.total?.confidence, f.date?.confidence] + (fuel ? [f.volume?.confidence] : [])
        return parts.filter { ($0 ?? 0) < ReceiptFields.reviewThreshold }.count
    }

    /// The confidences of those fields (0 when one is missing), weakest first: compared one by
    /// one, so a reading that raises a doubtful total from 0.32 to 0.55 is better even while a
    /// missing volume keeps the least of both at 0.
    static func confidences(_ f: ReceiptFields, fuel: Bool) -> [Double] {
        let parts = [f.total?.confidence, f.date?.confidence] + (fuel ? [f.volume?.confidence] : [])
        return parts.map { $0 ?? 0 }.sorted()
    }
}
