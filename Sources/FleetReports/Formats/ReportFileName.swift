import Foundation

/// File names under `--out`: `<report>-<label>.<ext>` and, for CSV, `<report>-<label>-<table>.csv`;
/// a report limited to some units (`ReportMetadata.subject`) is `<report>-<units>-<label>…`.
enum ReportFileName {
    static func base(_ metadata: ReportMetadata) -> String {
        safe(metadata.report) + (metadata.subject.map { "-" + safe($0) } ?? "") + "-" + safe(metadata.period.label)
    }

    static func file(_ metadata: ReportMetadata, ext: String) -> String {
        base(metadata) + "." + ext
    }

    static func file(_ metadata: ReportMetadata, table: String, ext: String) -> String {
        base(metadata) + "-" + safe(table) + "." + ext
    }

    /// Report names, labels and table ids are ours and already safe; this only guarantees that no
    /// value can climb out of the output folder or make a name the shell mangles.
    static func safe(_ component: String) -> String {
        let mapped = String(component.unicodeScalars.map { s -> Character in
            let ok = ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "."
            return ok ? Character(s) : "_"
        })
        let trimmed = mapped.drop(while: { $0 == "." })
        return trimmed.isEmpty ? "_" : String(trimmed)
    }
}
