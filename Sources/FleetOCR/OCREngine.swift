import Foundation
import CTesseract
import FleetCore

/// One Tesseract engine (C API) with the English model loaded.
///
/// An engine is expensive to create (it loads the traineddata) and not thread-safe, so a worker
/// thread owns one and reuses it for every image; `deinit` ends and deletes it cleanly.
public final class OCREngine {
    private let handle: OpaquePointer

    public enum Error: Swift.Error, CustomStringConvertible {
        case initFailed(dataPath: String?, language: String)

        public var description: String {
            switch self {
            case let .initFailed(path, language):
                return "Tesseract could not load the '\(language)' model from \(path ?? "its default tessdata folder"); install tesseract-ocr-\(language) (make deps does)"
            }
        }
    }

    /// The Tesseract library version, e.g. "5.3.0".
    public static var version: String { String(cString: TessVersion()) }

    /// - parameter dataPath: the tessdata folder; nil lets Tesseract use its built-in default
    ///   (Debian: /usr/share/tesseract-ocr/5/tessdata) or `TESSDATA_PREFIX`.
    public init(language: String = "eng", dataPath: String? = nil) throws {
        guard let api = TessBaseAPICreate() else { throw Error.initFailed(dataPath: dataPath, language: language) }
        let rc = TessBaseAPIInit3(api, dataPath, language)
        guard rc == 0 else {
            TessBaseAPIDelete(api)
            throw Error.initFailed(dataPath: dataPath, language: language)
        }
        handle = api
    }

    /// The languages the engine has loaded.
    public var loadedLanguages: [String] {
        guard let list = TessBaseAPIGetLoadedLanguagesAsVector(handle) else { return [] }
        defer { TessDeleteTextArray(list) }
        var out: [String] = []
        var i = 0
        while let p = list[i] { out.append(String(cString: p)); i += 1 }
        return out
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }
}
