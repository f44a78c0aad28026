import CXlsxWriter

extension Workbook.Sheet {
    /// How a sheet prints. Reports are wider than tall (eight to fifteen columns), so they print
    /// landscape and are scaled to one page wide: a column that spills onto a second sheet of
    /// paper is the one a reader never matches to its row.
    public struct PrintSetup: Sendable, Equatable {
        /// Landscape orientation.
        public var landscape = true
        /// Scales the sheet to one page wide, any number of pages tall.
        public var fitToOnePageWide = true
        /// A header row (0-based) printed again at the top of every page (`_xlnm.Print_Titles`).
        public var repeatedRow: Int? = nil
        /// Footer text in Excel's header/footer codes (`&L`, `&C`, `&R`, `&P`, `&N`, `&A`);
        /// literal text must have its `&` doubled (`Workbook.Sheet.footerLiteral`).
        public var footer: String? = nil
        /// With `fitToOnePageWide`, how many pages wide instead of one: a table too wide for one
        /// legible page (the DVIR register's 26 columns) prints across several, left to right
        /// before down, each repeating the `repeatedColumns` that say which row it is.
        public var pagesWide = 1
        /// The leading columns printed again on every page (`_xlnm.Print_Titles`); 0: none.
        public var repeatedColumns = 0

        public init(landscape: Bool = true, fitToOnePageWide: Bool = true, repeatedRow: Int? = nil, footer: String? = nil,
                    pagesWide: Int = 1, repeatedColumns: Int = 0) {
            self.landscape = landscape
            self.fitToOnePageWide = fitToOnePageWide
            self.repeatedRow = repeatedRow
            self.footer = footer
            self.pagesWide = pagesWide
            self.repeatedColumns = repeatedColumns
        }
    }

    /// Applies `setup`. Works in constant-memory mode too: it is sheet metadata, not cells.
    public func setPrint(_ setup: PrintSetup) throws {
        if setup.landscape { worksheet_set_landscape(sheet) } else { worksheet_set_portrait(sheet) }
        if setup.fitToOnePageWide { worksheet_fit_to_pages(sheet, UInt16(clamping: max(1, setup.pagesWide)), 0) }
        if setup.pagesWide > 1 { worksheet_print_across(sheet) }
        if setup.repeatedColumns > 0 {
            let rc = worksheet_repeat_columns(sheet, 0, lxw_col_t(clamping: setup.repeatedColumns - 1))
            guard rc == LXW_NO_ERROR else { throw Workbook.Error.cell(row: 0, column: setup.repeatedColumns - 1, code: Int32(rc.rawValue)) }
        }
        if let row = setup.repeatedRow {
            let rc = worksheet_repeat_rows(sheet, lxw_row_t(row), lxw_row_t(row))
            guard rc == LXW_NO_ERROR else { throw Workbook.Error.cell(row: row, column: 0, code: Int32(rc.rawValue)) }
        }
        if let footer = setup.footer {
            let rc = worksheet_set_footer(sheet, footer)
            guard rc == LXW_NO_ERROR else { throw Workbook.Error.footer(footer, code: Int32(rc.rawValue)) }
        }
    }

    /// Excel's footer limit is 255 characters, codes included.
    public static let maxFooterLength = 255

    /// `text` as literal footer text: `&` doubled (a single `&` starts a code), cut to `limit`
    /// characters so the whole footer stays within Excel's 255.
    public static func footerLiteral(_ text: String, limit: Int) -> String {
        let pieces = text.map { $0 == "&" ? "&&" : String($0) }
        guard pieces.reduce(0, { $0 + $1.count }) > limit else { return pieces.joined() }
        // Cut: keep whole pieces (never half of "&&") and room for the "…" that says so.
        var out = ""
        for piece in pieces {
            if out.count + piece.count > limit - 1 { break }
            out += piece
        }
        return out + "…"
    }
}
