import Foundation
import CXlsxWriter
import FleetCore

/// A thin, typed wrapper over a libxlsxwriter workbook: numbers stay numbers and text stays
/// text, which is what finance users need from an XLSX.
public final class Workbook {
    private let workbook: UnsafeMutablePointer<lxw_workbook>
    public let path: String
    private var closed = false

    public enum Error: Swift.Error, CustomStringConvertible {
        case create(String)
        case write(String, code: Int32)

        public var description: String {
            switch self {
            case let .create(path): return "cannot create the workbook \(path); check that the folder exists and is writable"
            case let .write(path, code): return "libxlsxwriter failed to write \(path): \(String(cString: lxw_strerror(lxw_error(UInt32(code)))))"
            }
        }
    }

    /// - parameter constantMemory: stream rows to disk (for large detail sheets); rows must then be written in order.
    public init(path: String, constantMemory: Bool = false) throws {
        var options = lxw_workbook_options()
        options.constant_memory = constantMemory ? UInt8(LXW_TRUE.rawValue) : UInt8(LXW_FALSE.rawValue)
        guard let wb = workbook_new_opt(path, &options) else { throw Error.create(path) }
        workbook = wb
        self.path = path
    }

    public func addSheet(_ name: String) -> Sheet {
        Sheet(workbook_add_worksheet(workbook, name))
    }

    public func close() throws {
        guard !closed else { return }
        closed = true
        let rc = workbook_close(workbook)
        guard rc == LXW_NO_ERROR else { throw Error.write(path, code: Int32(rc.rawValue)) }
    }

    deinit { if !closed { workbook_close(workbook) } }

    /// One worksheet.
    public struct Sheet {
        let sheet: UnsafeMutablePointer<lxw_worksheet>
        init(_ sheet: UnsafeMutablePointer<lxw_worksheet>) { self.sheet = sheet }

        public func write(_ value: Double, row: Int, column: Int) {
            worksheet_write_number(sheet, lxw_row_t(row), lxw_col_t(column), value, nil)
        }

        public func write(_ text: String, row: Int, column: Int) {
            worksheet_write_string(sheet, lxw_row_t(row), lxw_col_t(column), text, nil)
        }
    }
}
