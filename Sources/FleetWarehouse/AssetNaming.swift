/// Which name an asset keeps when several sources name it.
///
/// Master data's name wins over any feed's. Between names that feeds carry (a Samsara
/// vehicle's "T-03 Cascadia 126", an ISO 15143-3 feed's label), the lexically smallest wins
/// (Swift's `String` order, a total order): before, the first feed imported kept its name and
/// the asset was called differently depending on import order. A feed has no reliable time of
/// its name (a vehicle list has `updatedAtTime`, a stats page none), so "most recent" cannot be
/// decided from every source; the smallest is arbitrary but the same in any order.
enum AssetNaming {
    /// The name to store, given the stored one (and whether master data gave it) and a feed's.
    static func feedName(_ incoming: String?, over stored: String?, storedFromMaster: Bool) -> String? {
        guard let incoming else { return stored }
        guard let stored else { return incoming }
        if storedFromMaster { return stored }
        return incoming < stored ? incoming : stored
    }
}
