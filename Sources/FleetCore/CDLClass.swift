/// A commercial driver's licence class, the vehicle group it licenses (49 CFR 383.91(a)): A
/// combination vehicles (GCWR 26,001 lb or more, towing more than 10,000 lb GVWR), B heavy
/// straight vehicles (GVWR 26,001 lb or more), C small vehicles carrying 16 or more people or
/// placarded hazardous materials.
///
/// A licence of a higher group covers the lower ones (383.91(c)(1): group A may operate B and
/// C; (c)(2): group B may operate C), endorsements aside: FleetKit stores none, so a passenger
/// or hazmat vehicle is judged by its class alone (docs/METRICS.md, "Driver qualification").
public enum CDLClass: String, Sendable, CaseIterable, Comparable {
    case a = "A", b = "B", c = "C"

    /// Whether a licence of this class covers a vehicle needing `needed`.
    public func covers(_ needed: CDLClass) -> Bool { self <= needed }

    public static func < (l: CDLClass, r: CDLClass) -> Bool { l.rawValue < r.rawValue }

    /// The class a licence's class text names, or nil for a licence that is no CDL ("D", "E",
    /// "regular", …). Accepts `A`, `Class A`, `CDL A`, `CDL-A`, `Group A`, any case.
    public init?(licence text: String) {
        var t = text.uppercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" }
        for prefix in ["CLASS", "CDL", "GROUP"] where t.hasPrefix(prefix) { t.removeFirst(prefix.count) }
        for prefix in ["CLASS", "GROUP"] where t.hasPrefix(prefix) { t.removeFirst(prefix.count) }
        guard let c = CDLClass(rawValue: t) else { return nil }
        self = c
    }
}
