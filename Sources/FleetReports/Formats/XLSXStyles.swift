import FleetCore

/// The cell formats of a report workbook, made once per distinct style (libxlsxwriter keeps
/// every format object until the workbook closes, so a format per cell would bloat the file).
///
/// Number formats by value: integers `#,##0`; numbers `#,##0.0` with the column type's places
/// (durations are hours, `0.0`; rates `#,##0.0000##`, four to six decimals); money `#,##0.00 "USD"` with the currency's minor digits; percent
/// `0.0%` (the cell holds 0.734 for 73.4 %); dates `yyyy-mm-dd`; datetimes `yyyy-mm-dd hh:mm`.
final class XLSXStyles {
    private let workbook: Workbook
    private var cache: [Workbook.Style: Workbook.Format] = [:]

    static let headerFill: UInt32 = 0xF3F5F8
    static let muted: UInt32 = 0x5B6775

    init(_ workbook: Workbook) { self.workbook = workbook }

    func format(_ style: Workbook.Style) -> Workbook.Format {
        if let f = cache[style] { return f }
        let f = workbook.addFormat(style)
        cache[style] = f
        return f
    }

    var header: Workbook.Format {
        var s = Workbook.Style()
        s.bold = true; s.fill = Self.headerFill; s.borderBottom = true; s.wrap = true; s.alignTop = true
        return format(s)
    }

    var title: Workbook.Format {
        var s = Workbook.Style()
        s.bold = true; s.fontSize = 14
        return format(s)
    }

    var heading: Workbook.Format {
        var s = Workbook.Style()
        s.bold = true; s.fontSize = 12
        return format(s)
    }

    var label: Workbook.Format {
        var s = Workbook.Style()
        s.fontColor = Self.muted
        return format(s)
    }

    var note: Workbook.Format {
        var s = Workbook.Style()
        s.italic = true; s.fontColor = Self.muted
        return format(s)
    }

    /// The format of a value in a column of `type`; `totals` makes it bold with a rule above.
    func cell(_ value: ReportValue, type: ReportColumnType, totals: Bool) -> Workbook.Format? {
        let number = Self.numberFormat(value, type: type)
        guard number != nil || totals else { return nil }
        var s = Workbook.Style()
        s.numberFormat = number
        if totals { s.bold = true; s.borderTop = true }
        return format(s)
    }

    /// A number with `places` decimals and thousands separators.
    func number(places: Int, bold: Bool = false) -> Workbook.Format {
        var s = Workbook.Style()
        s.numberFormat = Self.decimal(places)
        s.bold = bold
        return format(s)
    }

    /// A bold number in an explicit Excel format (a headline figure with its unit).
    func headline(_ numberFormat: String) -> Workbook.Format {
        var s = Workbook.Style()
        s.numberFormat = numberFormat
        s.bold = true
        return format(s)
    }

    static func numberFormat(_ value: ReportValue, type: ReportColumnType) -> String? {
        switch value {
        case .null, .text: return nil
        case .integer: return "#,##0"
        case .number: return type == .rate ? decimal(type.places) + "##" : decimal(type.places)
        case let .money(_, currency): return money(currency)
        case .percent: return "0." + String(repeating: "0", count: max(1, type.places)) + "%"
        case .date: return "yyyy-mm-dd"
        case .datetime: return "yyyy-mm-dd hh:mm"
        }
    }

    static func decimal(_ places: Int) -> String {
        places > 0 ? "#,##0." + String(repeating: "0", count: places) : "#,##0"
    }

    /// `#,##0.00 "USD"`: the code, not a symbol, so `$` never means CAD or AUD by accident.
    static func money(_ currency: String) -> String {
        let code = String(currency.filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        return decimal(Money.minorDigits(currency)) + " \"" + code + "\""
    }
}
