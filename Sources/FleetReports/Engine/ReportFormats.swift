/// The output formats by `--format` name, in the order `report` writes them.
public enum ReportFormats {
    public static let all: [any ReportFormat] = [CSVFormat.csv(), XLSXFormat.xlsx(), HTMLFormat.html(), JSONFormat.json()]

    public static var names: [String] { all.map(\.name) }

    public static func named(_ name: String) -> (any ReportFormat)? { all.first { $0.name == name } }
}
