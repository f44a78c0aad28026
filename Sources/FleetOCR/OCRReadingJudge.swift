/// What the caller of `OCRPipeline` needs from a reading, so the pipeline spends its readings
/// where they change an outcome rather than where the mean word confidence happens to be low.
///
/// Why: the mean word confidence says how clean the text looked, not whether it gave what is
/// wanted. On the benchmark's set, slips whose first reading was unsure (under 70) but already
/// gave a confirmed total and a sure date went on to OSD and trial turns that could not improve
/// those fields (docs/FORMATS.md, "Reading until the fields are sure"); and a small-print scan that
/// read cleanly but lost a digit of its fuel line was never read again.
public protocol OCRReadingJudge {
    /// The reading gives all the caller needs: no other turn or scale is read after it.
    func isSettled(_ reading: OCRResult) -> Bool
    /// Whether reading `a` serves the caller better than reading `b` of the same image.
    func prefers(_ a: OCRResult, over b: OCRResult) -> Bool
    /// Lines of `reading` (indices into `lines`) that, read again on their own, might settle what
    /// the reading leaves unsettled; the pipeline rereads them cut out of the image and keeps a
    /// reread line only when `prefers` says the reading with it is better.
    func linesToReread(_ reading: OCRResult) -> [Int]
    /// Tesseract languages (`deu`, `msa`, `jpn`), most likely first, that an unsettled `reading`
    /// may read better in: from the script OSD found (`OCRResult.script`) and what the reading
    /// says of its own origin. The pipeline reads the image once more in the first one installed
    /// and keeps that reading when `prefers` says it is better (`OCRPipeline.Options.secondLanguage`).
    func languages(for reading: OCRResult) -> [String]
}

extension OCRReadingJudge {
    public func linesToReread(_ reading: OCRResult) -> [Int] { [] }
    public func languages(for reading: OCRResult) -> [String] { [] }
}
