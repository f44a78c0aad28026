/// What Tesseract read from one image: the text, line by line, with a confidence per word.
///
/// Lines are kept (rather than only the flat text) because receipt fields are found line by
/// line, and each field's confidence starts from the confidence of the words it came from.
public struct OCRResult: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        public var text: String
        /// Tesseract's word confidence, 0–100.
        public var confidence: Double
        public init(text: String, confidence: Double) {
            self.text = text
            self.confidence = confidence
        }
    }

    /// A rectangle of the image as it was read (turned, deskewed, scaled), in pixels.
    public struct Box: Sendable, Equatable {
        public var x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    public struct Line: Sendable, Equatable {
        public var words: [Word]
        /// Where Tesseract found the line, so one line can be read again on its own
        /// (`OCRPipeline`'s line rereads); nil for lines not from an image.
        public var box: Box? = nil
        /// The line was read again on its own (`OCRReadingJudge.linesToReread`) and that reading kept.
        public var reread = false
        public init(words: [Word], box: Box? = nil) {
            self.words = words
            self.box = box
        }
        public var text: String { words.map(\.text).joined(separator: " ") }
        /// The lowest word confidence: a field is only as sure as its weakest word.
        public var confidence: Double { words.map(\.confidence).min() ?? 0 }
    }

    public var lines: [Line]
    /// Tesseract's mean text confidence, 0–100 (0 when nothing was read).
    public var meanConfidence: Double
    /// Clockwise quarter turns applied before recognition (0–3), and the skew corrected, in degrees.
    public var quarterTurns = 0
    public var skewDegrees = 0.0
    /// How `quarterTurns` was chosen, and Tesseract's orientation (OSD) confidence when it ran.
    public var orientation = Orientation.notTried
    public var orientationConfidence: Double? = nil

    /// How the upright turn of the image was decided.
    public enum Orientation: String, Sendable, Equatable {
        /// Orientation was switched off.
        case notTried = "not tried"
        /// The turn Tesseract's OSD was sure of (confidence at least
        /// `OCRPipeline.Options.osdConfidence`), read after the first guess read poorly (or first).
        case osd
        /// The first guess (the line direction: sideways or not) read confidently.
        case confidentReading = "confident reading"
        /// Neither read confidently; the other turns were read at a reduced size and the one with
        /// the clearly best mean word confidence was kept (possibly the turn already read).
        case wordConfidence = "word confidence"
        /// The first guess read poorly, but the caller's judge found what it needs in it (a
        /// receipt's total, date and volume confirmed), so no other turn was read.
        case settledReading = "fields settled"
    }
    /// The image was read a second time scaled up (small print, `OCRPipeline.Options.smallPrintHeight`),
    /// and that reading was kept.
    public var rereadScaled = false
    /// The Tesseract language this reading was made with when not the engine's own (`eng`): a
    /// second reading in the receipt's language was kept (`OCRPipeline.Options.secondLanguage`).
    public var language: String? = nil
    /// The script OSD found (`Latin`, `Japanese`, `Han`, …) when it ran and was sure of it.
    public var script: String? = nil
    /// Set when the image was not read: the components of ink Tesseract's binarisation found,
    /// over `OCREngine.maxInkComponents` (noise, a halftone or dither pattern, not text).
    public var inkComponents: Int? = nil
    /// Set when the image was not read: the vertical edge steps of ink shapes taller than a text
    /// line, over `OCREngine.maxTallEdges` (a pattern of lines, not text).
    public var tallEdges: Int? = nil
    /// Whether the image was refused rather than read (`inkComponents` or `tallEdges`).
    public var refused: Bool { inkComponents != nil || tallEdges != nil }

    public init(lines: [Line], meanConfidence: Double) {
        self.lines = lines
        self.meanConfidence = meanConfidence
    }

    public var text: String { lines.map(\.text).joined(separator: "\n") }
    public var wordCount: Int { lines.reduce(0) { $0 + $1.words.count } }
}
