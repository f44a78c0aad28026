// libFuzzer harness for the .xlsx reader (Sources/FleetImport/Parsers/XLSX/*, the zip directory,
// the zlib inflate stream, the shared XML tokenizer it reads parts with, and the record view the
// CSV formats read; compiled with FleetCore's sources into one module by `make fuzz`, zlib linked).
// It must never crash, hang or grow without bound on any bytes; every failure is an XLSXError
// with a message, and every record it returns is one a CSV row loop can take.
//
// The first byte chooses what the rest is: odd, a whole file (zip bytes, mutated as they come);
// even, the XML of the first sheet, packed with a fixed workbook, shared strings and styles into
// a valid archive (stored entries with their CRC), so mutations reach the sheet reader instead
// of stopping at the zip checks.
import Foundation
import CZlib

private let path = NSTemporaryDirectory() + "fleetkit-xlsx-fuzz-\(getpid()).xlsx"

private func crc(_ b: [UInt8]) -> UInt32 {
    UInt32(truncatingIfNeeded: b.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
}

private func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
private func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }

/// A zip archive of `parts`, stored (method 0).
private func zip(_ parts: [(String, [UInt8])]) -> [UInt8] {
    var out: [UInt8] = [], directory: [UInt8] = []
    for (name, data) in parts {
        let n = Array(name.utf8), c = crc(data), offset = UInt32(out.count)
        out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(c) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(n.count) + le16(0) + n + data
        directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(c) + le32(UInt32(data.count)) + le32(UInt32(data.count))
            + le16(n.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + n
    }
    let start = UInt32(out.count)
    out += directory
    out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(parts.count) + le16(parts.count) + le32(UInt32(directory.count)) + le32(start) + le16(0)
    return out
}

private let workbook = Array("""
<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr/><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>
""".utf8)
private let rels = Array("""
<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>
""".utf8)
private let shared = Array("""
<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>date</t></si><si><r><t>amo</t></r><r><t>unt</t></r></si><si><t>T-12</t></si></sst>
""".utf8)
private let styles = Array("""
<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>
""".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXLSXReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let file: [UInt8]
    if data[0] & 1 == 1 {
        file = rest
    } else {
        file = zip([("xl/workbook.xml", workbook), ("xl/_rels/workbook.xml.rels", rels), ("xl/sharedStrings.xml", shared),
                    ("xl/styles.xml", styles), ("xl/worksheets/sheet1.xml", rest)])
    }
    FileManager.default.createFile(atPath: path, contents: Data(file))
    do {
        let records = try XLSXRecords(url: URL(fileURLWithPath: path), sheet: nil)
        var previous = 0
        var n = 0
        while let r = try records.next(), n < 100_000 {
            n += 1
            precondition(r.fields.count <= XLSXSheetReader.maxColumns, "a record of \(r.fields.count) fields")
            precondition(r.line > previous && r.line <= XLSXSheetReader.maxRows, "row \(r.line) after \(previous)")
            precondition(r.raw.count <= 4096, "raw text of \(r.raw.count) characters")
            previous = r.line
            for p in records.cellProblems {
                precondition(!p.message.isEmpty && p.column >= 0 && p.column < XLSXSheetReader.maxColumns, "problem \(p)")
                precondition(records.location(line: r.line, column: p.column).contains("!"), "location")
            }
        }
    } catch let e as XLSXError {
        precondition(!e.message.isEmpty, "an error without a message")
    } catch {
        preconditionFailure("the reader threw a non-XLSX error: \(error)")
    }
    return 0
}
