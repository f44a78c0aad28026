/// What an importer could still read of a row it rejected: the fact table and natural key the
/// row would have had, and its amount and time when readable. Every part is best effort: a row
/// rejected for its date has no time, a row without an id column keyed by its content has no key.
///
/// Why: a fuel row rejected for its date and then fixed and imported again left the old reject
/// listed forever, while the cost report said complete without the $58.38 it lacked. With the
/// key, a later load of the same row resolves the reject (`RejectResolution`); with the amount,
/// a report lists what an open reject leaves out.
public struct RejectedRow: Sendable, Equatable {
    /// `fuel_purchase`, `expense`, `maintenance_record`.
    public var table: String
    /// The `source_key` the row would have had; nil when it cannot be told.
    public var key: String?
    public var amountMinor: Int64?
    public var currency: String?
    /// UTC epoch milliseconds.
    public var at: Int64?

    public init(table: String, key: String?, amountMinor: Int64?, currency: String?, at: Int64?) {
        self.table = table
        self.key = key
        self.amountMinor = amountMinor
        self.currency = currency
        self.at = at
    }
}
