/// The precedence rule of records whose source says when their state was last updated
/// (`state_at`): DVIRs and their defects (docs/FORMATS.md, "Later state wins, not later import").
///
/// A stored row is replaced by a later state. At exactly the same `state_at` time cannot choose,
/// and "equal or later wins" let the export imported last win: two exports of one DVIR with
/// the same `updatedAtTime`, one still unsafe and one resolved, left the warehouse unsafe or
/// resolved depending on import order. At a tie the row that knows more wins (more non-NULL
/// values: a repair's resolution and signature are not erased by a copy without them), and
/// between rows knowing as much, the greater canonical text of their values (`quote()` of each
/// column, generated ids left out because they differ between warehouses). That is an
/// arbitrary but total order on content, so any import order stores the same row.
enum StatePrecedence {
    /// The SQL condition under which `new` replaces the stored row of `table`.
    static func laterState(table: String, valueColumns: [String]) -> String {
        let compared = valueColumns.filter { $0 != "state_at" && $0 != "source_file_id" }
        func known(_ row: String) -> String { compared.map { "(\(row).\($0) IS NOT NULL)" }.joined(separator: " + ") }
        func text(_ row: String) -> String {
            compared.filter { !$0.hasSuffix("_id") }.map { "quote(\(row).\($0))" }.joined(separator: " || char(31) || ")
        }
        return "new.state_at > \(table).state_at OR (new.state_at = \(table).state_at AND "
            + "(\(known("new")) > \(known(table)) OR (\(known("new")) = \(known(table)) AND \(text("new")) > \(text(table)))))"
    }
}
