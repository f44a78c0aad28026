/// The "Charts" sheet: for each `ReportChart`, its data as a small table and a native Excel
/// chart drawn from those cells, so the numbers behind a chart are visible and checkable.
///
/// stackedBar → stacked column chart; bar → horizontal bar chart (first category on top, as in
/// the table, bars growing rightwards from 0, the value name under the horizontal axis);
/// timeline → horizontal bar chart of its values (days until due; negative = overdue).
/// Titles, series names and the value-axis name are cell references, never literal strings,
/// because libxlsxwriter reads a chart string starting with `=` as a formula.
enum XLSXCharts {
    /// Charts are drawn at 1.4 × Excel's default 480 × 288 px, about 20 rows tall.
    static let scale = 1.4
    static let chartRows = 21

    /// A bar chart grows with its categories, about 20 px each (a 10 pt label) plus 90 px of title and axis, so
    /// 33 assets each get a label (at the default height Excel and LibreOffice showed every
    /// third); a column chart keeps the default height.
    static func yScale(_ kind: Workbook.Chart.Kind, categories n: Int) -> Double {
        kind == .bar ? max(scale, Double(n * 20 + 90) / 288) : scale
    }

    /// Sheet rows (20 px each) a chart of that scale covers, so the next chart starts below it.
    static func rows(_ yScale: Double) -> Int { max(chartRows, Int((288 * yScale / 20).rounded(.up))) }

    /// Writes the sheet and returns it, for the caller's print setup.
    @discardableResult
    static func write(_ charts: [ReportChart], sheetName: String, book: Workbook, styles: XLSXStyles) throws -> Workbook.Sheet {
        let sheet = try book.addSheet(sheetName)
        var widths: [Double] = []
        var top = 0
        for chart in charts {
            let k = chart.series.count, n = chart.categories.count
            try sheet.write(chart.title, row: top, column: 0, format: styles.heading)
            try sheet.write(chart.valueLabel, row: top + 1, column: 0, format: styles.note)
            try sheet.write("Category", row: top + 2, column: 0, format: styles.header)
            for (s, series) in chart.series.enumerated() {
                try sheet.write(series.name, row: top + 2, column: 1 + s, format: styles.header)
            }
            let number = styles.number(places: 1)
            for (c, category) in chart.categories.enumerated() {
                try sheet.write(category, row: top + 3 + c, column: 0, format: nil)
                for (s, series) in chart.series.enumerated() {
                    if c < series.values.count, series.values[c].isFinite {
                        try sheet.write(series.values[c], row: top + 3 + c, column: 1 + s, format: number)
                    }
                }
            }
            if let target = chart.target, target.isFinite {
                // Under the data: the reference the HTML chart draws as a line (a native chart cannot without a second chart type).
                try sheet.write("\(chart.targetLabel ?? "target"): \(SVGChart.Axis.valueText(target)) \(chart.valueLabel)", row: top + 3 + n, column: 0, format: styles.note)
            }
            widths = XLSXFormat.merged(widths, [min(40, Double(max(chart.categories.map(\.count).max() ?? 0, "Category".count)) + 2)]
                + chart.series.map { min(30, max(10, Double($0.name.count) + 2)) })
            let kind: Workbook.Chart.Kind = chart.kind == .stackedBar ? .stackedColumn : .bar
            if n > 0, k > 0 {
                let native = book.addChart(kind)
                native.setTitle(sheet: sheetName, row: top, column: 0)
                for s in 0..<k {
                    native.addSeries(sheet: sheetName, nameRow: top + 2, nameColumn: 1 + s, firstRow: top + 3, lastRow: top + 2 + n,
                                     categoryColumn: 0, valueColumn: 1 + s)
                }
                native.setValueAxisName(sheet: sheetName, row: top + 1, column: 0)
                if kind == .bar { native.reverseCategories() }
                native.legend(bottom: k > 1)
                try sheet.insert(native, row: top, column: k + 2, xScale: scale, yScale: yScale(kind, categories: n))
            }
            top += max(n + 3, rows(yScale(kind, categories: n))) + 2
        }
        XLSXFormat.setWidths(sheet, widths)
        return sheet
    }
}
