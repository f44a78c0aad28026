import Foundation
import CXlsxWriter
import FleetCore

/// A thin, typed wrapper over a libxlsxwriter workbook: numbers stay numbers and text stays
/// text, which is what finance users need from an XLSX.
///
/// Text is only ever written with `worksheet_write_string`, so a value such as
/// `=HYPERLINK("http://x")` is a string cell, never a formula. Chart titles, series names and
/// axis names are set from cell references for the same reason: libxlsxwriter reads a literal
/// chart string that starts with `=` as a formula.
public final class Workbook {
    private let workbook: UnsafeMutablePointer<lxw_workbook>
    public let path: String
    private var closed = false
    /// C strings handed to libxlsxwriter that must outlive `workbook_close`.
    private var retained: [UnsafeMutablePointer<CChar>] = []
    private let cut = CutCounter()
    /// Text cells written so far that were cut to fit Excel's 32,767-character limit (`XLSXCellText`).
    public var truncatedCells: Int { cut.count }

    /// Shared by the workbook's sheets, which are value types.
    final class CutCounter { var count = 0 }

    public enum Error: Swift.Error, CustomStringConvertible {
        case create(String)
        case write(String, code: Int32)
        case sheetName(String, code: Int32)
        case cell(row: Int, column: Int, code: Int32)
        case footer(String, code: Int32)

        public var description: String {
            switch self {
            case let .create(path): return "cannot create the workbook \(path); check that the folder exists and is writable"
            case let .write(path, code): return "libxlsxwriter failed to write \(path): \(Self.text(code))"
            case let .sheetName(name, code): return "cannot add the sheet '\(name)': \(Self.text(code))"
            case let .cell(row, column, code): return "libxlsxwriter refused the cell at row \(row + 1), column \(column + 1): \(Self.text(code))"
            case let .footer(text, code): return "libxlsxwriter refused the page footer '\(text)': \(Self.text(code))"
            }
        }

        static func text(_ code: Int32) -> String { String(cString: lxw_strerror(lxw_error(UInt32(code)))) }
    }

    /// - parameter constantMemory: stream rows to disk (for large detail sheets); rows must then be written in order.
    public init(path: String, constantMemory: Bool = false) throws {
        var options = lxw_workbook_options()
        options.constant_memory = constantMemory ? UInt8(LXW_TRUE.rawValue) : UInt8(LXW_FALSE.rawValue)
        guard let wb = workbook_new_opt(path, &options) else { throw Error.create(path) }
        workbook = wb
        self.path = path
    }

    /// Sets the document title and creation time. A fixed creation time keeps docProps/core.xml
    /// identical between runs over the same data (libxlsxwriter uses "now" otherwise).
    public func setProperties(title: String, created: Int64) throws {
        var properties = lxw_doc_properties()
        properties.title = retain(title)
        properties.created = time_t(created)
        let rc = workbook_set_properties(workbook, &properties)
        guard rc == LXW_NO_ERROR else { throw Error.write(path, code: Int32(rc.rawValue)) }
    }

    /// Adds a worksheet; the name must be valid (≤ 31 characters, none of `[]:*?/\`, unique).
    public func addSheet(_ name: String) throws -> Sheet {
        let rc = workbook_validate_sheet_name(workbook, name)
        guard rc == LXW_NO_ERROR, let sheet = workbook_add_worksheet(workbook, name) else {
            throw Error.sheetName(name, code: Int32(rc.rawValue))
        }
        return Sheet(sheet, cut: cut)
    }

    public func addFormat(_ style: Style) -> Format {
        let f = workbook_add_format(workbook)!
        if style.bold { format_set_bold(f) }
        if style.italic { format_set_italic(f) }
        if let size = style.fontSize { format_set_font_size(f, size) }
        if let color = style.fontColor { format_set_font_color(f, lxw_color_t(color)) }
        if let number = style.numberFormat { format_set_num_format(f, number) }
        if let fill = style.fill { format_set_bg_color(f, lxw_color_t(fill)) }
        if style.borderTop { format_set_top(f, UInt8(LXW_BORDER_THIN.rawValue)) }
        if style.borderBottom { format_set_bottom(f, UInt8(LXW_BORDER_THIN.rawValue)) }
        if style.wrap { format_set_text_wrap(f) }
        if style.alignTop { format_set_align(f, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue)) }
        return Format(pointer: f)
    }

    public func addChart(_ kind: Chart.Kind) -> Chart {
        let type: lxw_chart_type
        switch kind {
        case .column: type = LXW_CHART_COLUMN
        case .stackedColumn: type = LXW_CHART_COLUMN_STACKED
        case .bar: type = LXW_CHART_BAR
        }
        return Chart(chart: workbook_add_chart(workbook, UInt8(type.rawValue)), kind: kind)
    }

    public func close() throws {
        guard !closed else { return }
        closed = true
        let rc = workbook_close(workbook)
        release()
        guard rc == LXW_NO_ERROR else { throw Error.write(path, code: Int32(rc.rawValue)) }
    }

    deinit {
        if !closed { workbook_close(workbook) }
        release()
    }

    private func retain(_ s: String) -> UnsafeMutablePointer<CChar> {
        let p = strdup(s)!
        retained.append(p)
        return p
    }

    private func release() {
        retained.forEach { free($0) }
        retained = []
    }

    /// What a cell format looks like; the workbook turns it into a `Format`.
    public struct Style: Hashable, Sendable {
        public var bold = false
        public var italic = false
        public var fontSize: Double? = nil
        public var fontColor: UInt32? = nil
        /// An Excel number format: `#,##0.00 "USD"`, `0.0%`, `yyyy-mm-dd`.
        public var numberFormat: String? = nil
        public var fill: UInt32? = nil
        public var borderTop = false
        public var borderBottom = false
        public var wrap = false
        public var alignTop = false

        public init() {}
    }

    /// A cell format owned by the workbook; valid until `close()`.
    public struct Format {
        let pointer: UnsafeMutablePointer<lxw_format>
    }

    /// One worksheet.
    public struct Sheet {
        let sheet: UnsafeMutablePointer<lxw_worksheet>
        let cut: CutCounter
        init(_ sheet: UnsafeMutablePointer<lxw_worksheet>, cut: CutCounter) {
            self.sheet = sheet
            self.cut = cut
        }

        /// The text as Excel can hold it: one value longer than a cell is cut (and counted), never
        /// refused, so one description cannot fail the workbook (`XLSXCellText`).
        private func fitted(_ text: String) -> String {
            let (fitted, truncated) = XLSXCellText.fit(text)
            if truncated { cut.count += 1 }
            return fitted
        }

        public func write(_ value: Double, row: Int, column: Int) {
            worksheet_write_number(sheet, lxw_row_t(row), lxw_col_t(column), value, nil)
        }

        public func write(_ text: String, row: Int, column: Int) {
            worksheet_write_string(sheet, lxw_row_t(row), lxw_col_t(column), fitted(text), nil)
        }

        public func write(_ value: Double, row: Int, column: Int, format: Format?) throws {
            try check(worksheet_write_number(sheet, lxw_row_t(row), lxw_col_t(column), value, format?.pointer), row, column)
        }

        /// A string cell (shared string, or inline string in constant-memory mode); never a formula.
        /// Text longer than a cell holds is cut at 32,767 UTF-16 units with "…" and counted.
        public func write(_ text: String, row: Int, column: Int, format: Format?) throws {
            try check(worksheet_write_string(sheet, lxw_row_t(row), lxw_col_t(column), fitted(text), format?.pointer), row, column)
        }

        /// An Excel serial date-time from wall-clock fields (Excel has no time zones).
        public func writeDateTime(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0,
                                  row: Int, column: Int, format: Format?) throws {
            var dt = lxw_datetime(year: Int32(year), month: Int32(month), day: Int32(day), hour: Int32(hour), min: Int32(minute), sec: second)
            try check(worksheet_write_datetime(sheet, lxw_row_t(row), lxw_col_t(column), &dt, format?.pointer), row, column)
        }

        /// An empty cell that still carries a format (a totals row's top border).
        public func writeBlank(row: Int, column: Int, format: Format?) throws {
            try check(worksheet_write_blank(sheet, lxw_row_t(row), lxw_col_t(column), format?.pointer), row, column)
        }

        /// Width in characters of the default font.
        public func setColumn(_ column: Int, width: Double) {
            worksheet_set_column(sheet, lxw_col_t(column), lxw_col_t(column), width, nil)
        }

        /// Freezes the rows above `row` and the columns left of `column`.
        public func freezePanes(row: Int, column: Int = 0) {
            worksheet_freeze_panes(sheet, lxw_row_t(row), lxw_col_t(column))
        }

        /// Excel allows one autofilter per sheet.
        public func autofilter(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws {
            try check(worksheet_autofilter(sheet, lxw_row_t(firstRow), lxw_col_t(firstColumn), lxw_row_t(lastRow), lxw_col_t(lastColumn)),
                      firstRow, firstColumn)
        }

        /// Places `chart` with its top-left corner at the cell, scaled from the 480×288 px default.
        public func insert(_ chart: Chart, row: Int, column: Int, xScale: Double = 1, yScale: Double = 1) throws {
            var options = lxw_chart_options()
            options.x_scale = xScale
            options.y_scale = yScale
            try check(worksheet_insert_chart_opt(sheet, lxw_row_t(row), lxw_col_t(column), chart.chart, &options), row, column)
        }

        private func check(_ rc: lxw_error, _ row: Int, _ column: Int) throws {
            guard rc == LXW_NO_ERROR else { throw Error.cell(row: row, column: column, code: Int32(rc.rawValue)) }
        }
    }

    /// A native chart whose data lives in worksheet cells.
    public struct Chart {
        public enum Kind: Sendable { case column, stackedColumn, bar }
        let chart: UnsafeMutablePointer<lxw_chart>
        let kind: Kind

        /// libxlsxwriter swaps the axes of a bar chart: its "x" axis handle is the value axis
        /// (horizontal) and its "y" handle the category axis (vertical), the reverse of a column
        /// chart. Reading them the column way reversed the value axis of every bar chart, so bars
        /// grew leftwards from 0 on the right, and put the value name on the category axis.
        private var valueAxis: UnsafeMutablePointer<lxw_chart_axis> {
            chart_axis_get(chart, kind == .bar ? LXW_CHART_AXIS_TYPE_X : LXW_CHART_AXIS_TYPE_Y)
        }
        private var categoryAxis: UnsafeMutablePointer<lxw_chart_axis> {
            chart_axis_get(chart, kind == .bar ? LXW_CHART_AXIS_TYPE_Y : LXW_CHART_AXIS_TYPE_X)
        }

        /// The chart title is the text of a cell.
        public func setTitle(sheet: String, row: Int, column: Int) {
            chart_title_set_name_range(chart, sheet, lxw_row_t(row), lxw_col_t(column))
        }

        /// Adds a series: its name is a cell, its categories and values are column ranges.
        public func addSeries(sheet: String, nameRow: Int, nameColumn: Int, firstRow: Int, lastRow: Int,
                              categoryColumn: Int, valueColumn: Int) {
            let series = chart_add_series(chart, nil, nil)
            chart_series_set_categories(series, sheet, lxw_row_t(firstRow), lxw_col_t(categoryColumn), lxw_row_t(lastRow), lxw_col_t(categoryColumn))
            chart_series_set_values(series, sheet, lxw_row_t(firstRow), lxw_col_t(valueColumn), lxw_row_t(lastRow), lxw_col_t(valueColumn))
            chart_series_set_name_range(series, sheet, lxw_row_t(nameRow), lxw_col_t(nameColumn))
        }

        /// Names the value axis from a cell (the y axis of a column chart, the x axis of a bar chart).
        public func setValueAxisName(sheet: String, row: Int, column: Int) {
            chart_axis_set_name_range(valueAxis, sheet, lxw_row_t(row), lxw_col_t(column))
        }

        /// Bar charts draw the first category at the bottom; reversing puts it on top, as in the
        /// table. The value axis then crosses at the last category, so it stays at the bottom
        /// (Excel's "at maximum category") instead of moving to the top.
        public func reverseCategories() {
            chart_axis_set_reverse(categoryAxis)
            chart_axis_set_crossing_max(categoryAxis)
        }

        public func legend(bottom: Bool) {
            if bottom {
                chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
            } else {
                chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
            }
        }
    }
}
