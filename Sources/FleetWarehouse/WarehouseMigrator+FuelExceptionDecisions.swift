import GRDB

extension WarehouseMigrator {
    /// A person's decision on a fuel exception (`fleetkit review exception accept|reject`):
    /// accepted (the purchase stands as charged; the reason says why) or rejected (the purchase
    /// is not the fleet's cost: it leaves the cost report's totals, listed with the reason).
    ///
    /// Append-only for the audit: triggers refuse UPDATE and DELETE, and the latest row of an
    /// exception is its state. Exceptions are computed by the report, never stored, so a decision
    /// is keyed by what names the exception in the source data: the purchase's natural key
    /// (`fuel_purchase.source_key`: `card:<transaction id>`, the card row's time, card, vehicle
    /// and total, or `receipt:<sha256 of the image>`) and the rule, never a row id. It outlives
    /// re-imports, `forget` and re-import, and re-linking, and applies again when the same
    /// purchase is read again.
    static let v17FuelExceptionDecisions = """
    CREATE TABLE fuel_exception_decision (
        id INTEGER PRIMARY KEY,
        purchase TEXT NOT NULL,
        rule TEXT NOT NULL,
        unit TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected')),
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        decided_by TEXT NOT NULL,
        decided_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX fuel_exception_decision_key ON fuel_exception_decision(purchase, rule, id);
    CREATE TRIGGER fuel_exception_decision_no_update BEFORE UPDATE ON fuel_exception_decision
    BEGIN SELECT RAISE(ABORT, 'fuel_exception_decision is append-only: record a new decision instead'); END;
    CREATE TRIGGER fuel_exception_decision_no_delete BEFORE DELETE ON fuel_exception_decision
    BEGIN SELECT RAISE(ABORT, 'fuel_exception_decision is append-only: record a new decision instead'); END;
    """
}
