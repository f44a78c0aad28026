import Foundation

/// What a workbook says about its sheets before any row is read: the sheets in order with
/// their parts, the date system (`workbookPr date1904`), the shared strings and which cell
/// styles show a number as a date.
///
/// Shared strings are held in memory (a sheet's cells refer to them by index, in any order):
/// at most `maxSharedText` bytes of text, refused beyond that with a reason. Everything else
/// here is small.
final class XLSXWorkbook {
    struct Sheet: Equatable { var name: String; var part: String }

    static let maxSmallPart = 16 << 20
    static let maxSharedStringsPart = 512 << 20
    static let maxSharedText = 64 << 20
    /// The largest sheet part (the zip directory cannot state more without zip64).
    static let maxSheetPart = Int(UInt32.max)

    let archive: ZipArchive
    private(set) var sheets: [Sheet] = []
    private(set) var date1904 = false
    private(set) var sharedStrings: [String] = []
    /// By cell style index (`s` of a cell): whether the style's number format is a date or time.
    private(set) var dateStyles: [Bool] = []

    init(url: URL) throws {
        archive = try ZipArchive(url: url)
        let workbookPart = try officeDocument()
        let rels = try relationships(of: workbookPart)
        try readWorkbook(workbookPart, rels: rels)
        if let shared = rels.values.first(where: { $0.type.hasSuffix("/sharedStrings") }) { try readSharedStrings(shared.target) }
        if let styles = rels.values.first(where: { $0.type.hasSuffix("/styles") }) { try readStyles(styles.target) }
    }

    /// The sheet named `name` (as Excel shows it, case-insensitively), or the first one.
    func sheet(named name: String?) throws -> Sheet {
        guard let name else {
            guard let first = sheets.first else { throw XLSXError(.missingSheet, "the workbook has no worksheet") }
            return first
        }
        if let s = sheets.first(where: { $0.name == name }) ?? sheets.first(where: { $0.name.lowercased() == name.lowercased() }) { return s }
        throw XLSXError(.missingSheet, "the workbook has no sheet named '\(name)'; its sheets are: \(sheets.map { "'\($0.name)'" }.joined(separator: ", "))")
    }

    // MARK: Parts

    private func officeDocument() throws -> String {
        guard archive.entries["_rels/.rels"] != nil else {
            if archive.entries["xl/workbook.xml"] != nil { return "xl/workbook.xml" }
            throw XLSXError(.missingPart, "the archive has neither _rels/.rels nor xl/workbook.xml: it is not an .xlsx workbook")
        }
        let rels = try relationships(of: "")
        guard let doc = rels.values.first(where: { $0.type.hasSuffix("/officeDocument") }) else {
            throw XLSXError(.missingPart, "the package names no workbook (no officeDocument relationship)", part: "_rels/.rels")
        }
        return doc.target
    }

    /// The relationships of `part` (`xl/_rels/workbook.xml.rels` for `xl/workbook.xml`), by
    /// id, with targets resolved to archive paths.
    private func relationships(of part: String) throws -> [String: (type: String, target: String)] {
        let folder = part.split(separator: "/").dropLast().joined(separator: "/")
        let file = part.split(separator: "/").last.map(String.init) ?? ""
        let relsName = (folder.isEmpty ? "" : folder + "/") + "_rels/" + file + ".rels"
        guard archive.entries[relsName] != nil else { return [:] }
        let x = try XLSXPart(archive, relsName, limit: Self.maxSmallPart)
        var out: [String: (type: String, target: String)] = [:]
        while true {
            let e = try x.next()
            if e == .eof { break }
            guard e == .start, x.named("Relationship") else { continue }
            guard let id = try x.attribute("Id"), let target = try x.attribute("Target") else { continue }
            if try x.attribute("TargetMode") == "External" { continue }
            out[id] = (try x.attribute("Type") ?? "", Self.resolve(target, from: folder))
        }
        return out
    }

    /// `target` relative to `folder` (or absolute from the package root), `..` applied.
    static func resolve(_ target: String, from folder: String) -> String {
        var parts: [Substring] = target.hasPrefix("/") ? [] : folder.split(separator: "/")
        for piece in target.split(separator: "/") {
            if piece == ".." { _ = parts.popLast() } else if piece != "." { parts.append(piece) }
        }
        return parts.joined(separator: "/")
    }

    private func readWorkbook(_ part: String, rels: [String: (type: String, target: String)]) throws {
        let x = try XLSXPart(archive, part, limit: Self.maxSmallPart)
        while true {
            let e = try x.next()
            if e == .eof { break }
            guard e == .start else { continue }
            if x.named("workbookPr") {
                let v = try x.attribute("date1904")?.lowercased()
                date1904 = v == "1" || v == "true"
            } else if x.named("sheet") {
                guard let name = try x.attribute("name"), let id = try x.attribute("id") else {
                    throw XLSXError(.badReference, "a sheet without a name or relationship id", part: part)
                }
                // Chart sheets and dialog sheets have no cells; only worksheets are listed.
                guard let rel = rels[id] else {
                    throw XLSXError(.badReference, "the sheet '\(name)' refers to relationship \(id), which the workbook does not have", part: part)
                }
                if rel.type.hasSuffix("/worksheet") { sheets.append(Sheet(name: name, part: rel.target)) }
            }
        }
    }

    private func readSharedStrings(_ part: String) throws {
        let x = try XLSXPart(archive, part, limit: Self.maxSharedStringsPart)
        var total = 0
        var current = ""
        var inItem = false
        while true {
            let e = try x.next()
            if e == .eof { break }
            if e == .end {
                if inItem, x.depth < 2 {
                    sharedStrings.append(current)
                    total += current.utf8.count
                    if total > Self.maxSharedText {
                        throw XLSXError(.tooLarge, "the shared strings hold more than \(Self.maxSharedText >> 20) MiB of text, more than FleetKit keeps in memory", part: part)
                    }
                    current = ""
                    inItem = false
                }
                continue
            }
            if x.named("si") { inItem = true; current = "" } else if x.named("t"), inItem {
                x.beginText()
                try x.skipElement()
                current += x.endText()
            } else if x.named("rPh") || x.named("phoneticPr") || x.named("rPr") {
                // Phonetic guides and run formatting are not part of the text.
                try x.skipElement()
            }
        }
    }

    private func readStyles(_ part: String) throws {
        let x = try XLSXPart(archive, part, limit: Self.maxSmallPart)
        var custom: [Int: Bool] = [:]
        var inCellXfs = false
        while true {
            let e = try x.next()
            if e == .eof { break }
            if e == .end { if inCellXfs, x.depth < 2 { inCellXfs = false }; continue }
            if x.named("numFmt"), let id = try x.attribute("numFmtId").flatMap({ Int($0) }) {
                custom[id] = XLSXDates.isDateFormat(try x.attribute("formatCode") ?? "")
            } else if x.named("cellXfs") {
                inCellXfs = true
            } else if x.named("xf"), inCellXfs {
                let id = try x.attribute("numFmtId").flatMap { Int($0) } ?? 0
                dateStyles.append(custom[id] ?? XLSXDates.isBuiltInDate(id))
                try x.skipElement()
            } else if x.named("cellStyleXfs") || x.named("dxfs") {
                try x.skipElement()
            }
        }
    }
}
