import GRDB

extension WarehouseMigrator {
    /// What an auditor reads on a DVIR that the warehouse did not keep:
    /// - `dvir.trailer`: the towed unit inspected with the vehicle (coupling devices are an item
    ///   of 49 CFR 396.11(a)(1) on a combination), as the source names it.
    /// - the DVIR policy `defects_only` is now called `law` (396.11(a)(1) as amended 2014), beside
    ///   `passenger` and `every_day`; a stored `defects_only` meant the same rule.
    static let v12DVIRAudit = """
    ALTER TABLE dvir ADD COLUMN trailer TEXT;
    UPDATE setting SET value = 'law' WHERE key = 'dvir_policy' AND value = 'defects_only';
    """
}
