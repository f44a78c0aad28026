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
