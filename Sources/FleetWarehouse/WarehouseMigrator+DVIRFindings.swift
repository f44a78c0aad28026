import GRDB

extension WarehouseMigrator {
    /// A compliance officer's decision on a DVIR signature-chain finding: accepted (the finding
    /// stands, with what was done about it) or disputed (the officer says it is wrong, and why).
    ///
    /// Append-only for the audit: triggers refuse UPDATE and DELETE, and the latest row of a
    /// finding is its state. Findings are computed by the report, never stored, so a decision
    /// is keyed by what names the finding in the source data (the DVIR's label, the rule and the
    /// defect's component), not by a row id: it outlives re-imports, `forget`, re-derivations
    /// and asset merges, and applies again when the same DVIR is read again.
    static let v13DVIRFindings = """
    CREATE TABLE dvir_finding_decision (
        id INTEGER PRIMARY KEY,
        dvir TEXT NOT NULL,
        rule TEXT NOT NULL,
        component TEXT NOT NULL,
        unit TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('accepted', 'disputed')),
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        decided_by TEXT NOT NULL,
        decided_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX dvir_finding_decision_key ON dvir_finding_decision(dvir, rule, component, id);
    CREATE TRIGGER dvir_finding_decision_no_update BEFORE UPDATE ON dvir_finding_decision
    BEGIN SELECT RAISE(ABORT, 'dvir_finding_decision is append-only: record a new decision instead'); END;
    CREATE TRIGGER dvir_finding_decision_no_delete BEFORE DELETE ON dvir_finding_decision
    BEGIN SELECT RAISE(ABORT, 'dvir_finding_decision is append-only: record a new decision instead'); END;
    """
}
