extension Comparable {
    /// The larger of `self` and `other`, for chaining: `a.max(b)`.
    public func max(_ other: Self) -> Self { self < other ? other : self }
}
