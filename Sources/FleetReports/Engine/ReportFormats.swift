/// The output formats by `--format` name, in the order `report` writes them.
public enum ReportFormats {
    public static let all: [any ReportFormat] = [CSVFormat.csv(), XLSXFormat.xlsx(), HTMLFormat.html(), JSONFormat.json()]

    public static var names: [String] { all.map(\.name) }

    /// The format the index page and in-report links are written in (`index.html`).
    public static var pageFormat: String { HTMLFormat.html().name }

    public static func named(_ name: String) -> (any ReportFormat)? { all.first { $0.name == name } }
}
