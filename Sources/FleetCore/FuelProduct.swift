import Foundation

/// What a fuel line bought, from its product code or text (docs/METRICS.md, "Fuel products"),
/// and which products an asset's fuel type takes.
///
/// A card statement and a receipt name the same product many ways (`Unleaded Regular`, `UNL 87`,
/// `Diesel #2`, `ULSD`, `AdBlue`, `Car wash`). Only motor fuels can be a misfuel: DEF and
/// additives go into their own tank or are poured in beside the fuel, and non-fuel items
/// (oil, wash, food) go into no tank at all.
public enum FuelProduct: String, Sendable, CaseIterable, Comparable {
    case gasolineRegular = "gasoline_regular"
    case gasolineMidgrade = "gasoline_midgrade"
    case gasolinePremium = "gasoline_premium"
    /// Gasoline whose grade the line does not say.
    case gasoline
    /// E85 and other high-ethanol blends: only flex-fuel engines take them.
    case e85
    case diesel
    /// Diesel exhaust fluid (AdBlue, AUS 32): its own tank on a diesel with SCR.
    case def
    /// Fuel additives and treatments (anti-gel, octane booster) bought beside the fuel.
    case additive
    case cng
    case lpg
    /// Oil, washes, food, parts: bought on the card, not put in a tank.
    case nonFuel = "non_fuel"
    /// Nothing on the line names the product.
    case unknown

    public static func < (a: FuelProduct, b: FuelProduct) -> Bool { a.rawValue < b.rawValue }

    /// Gasoline of any grade (E10 included, not E85).
    public var isGasoline: Bool { [.gasolineRegular, .gasolineMidgrade, .gasolinePremium, .gasoline].contains(self) }

    /// A product that goes into the engine's fuel tank: the only kind a misfuel, a tank capacity
    /// or a refill window is judged on.
    public var isMotorFuel: Bool { isGasoline || [.e85, .diesel, .cng, .lpg].contains(self) }

    /// The product of a line: its text first (what the merchant printed), else its product code.
    public static func classify(text: String?, code: String?) -> FuelProduct {
        let fromText = text.map(classify(text:)) ?? .unknown
        if fromText != .unknown { return fromText }
        return code.map(classify(code:)) ?? .unknown
    }

    /// The NACS/Conexxus fuel product codes every North American fleet card uses for the three
    /// gasoline grades (`001`, `002`, `003`, leading zeros optional). Other codes differ between
    /// card networks: they are kept as a field, and the product is read from the text.
    public static func classify(code: String) -> FuelProduct {
        let digits = code.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits.suffix(6)) else { return .unknown }
        switch n {
        case 1: return .gasolineRegular
        case 2: return .gasolineMidgrade
        case 3: return .gasolinePremium
        default: return .unknown
        }
    }

    /// The product a line's text names, by the words it contains (case and punctuation ignored).
    /// DEF and additives are read before diesel (`Diesel exhaust fluid`, `Diesel anti-gel` are
    /// not diesel), non-fuel items before everything.
    public static func classify(text: String) -> FuelProduct {
        let folded = text.uppercased().map { $0.isLetter || $0.isNumber ? $0 : " " }
        let words = String(folded).split(separator: " ").map(String.init)
        let joined = " " + words.joined(separator: " ") + " "
        func has(_ phrase: String) -> Bool { joined.contains(" " + phrase + " ") }
        func any(_ phrases: [String]) -> Bool { phrases.contains(where: has) }
        if any(["DEF", "ADBLUE", "AD BLUE", "AUS 32", "AUS32", "DIESEL EXHAUST FLUID", "EXHAUST FLUID", "UREA", "ARLA 32"]) { return .def }
        if any(["ADDITIVE", "ANTI GEL", "ANTIGEL", "ANTI GELL", "FUEL TREATMENT", "TREATMENT", "OCTANE BOOST", "OCTANE BOOSTER",
                "INJECTOR CLEANER", "FUEL CONDITIONER", "CONDITIONER", "POWER SERVICE", "HOWES"]) { return .additive }
        if any(["OIL", "MOTOR OIL", "ENGINE OIL", "WASH", "CAR WASH", "WASHER FLUID", "WIPER", "FOOD", "SNACK", "COFFEE", "DRINK",
                "MERCHANDISE", "MERCH", "SHOP", "STORE", "PARTS", "REPAIR", "SERVICE", "LABOR", "LABOUR", "TIRE", "TYRE", "ANTIFREEZE",
                "COOLANT", "SCALE", "PARKING", "TOLL", "SHOWER", "ICE", "TOBACCO", "LOTTERY", "MISC", "MISCELLANEOUS", "NON FUEL"])
            && !any(["DIESEL", "UNLEADED", "GASOLINE", "PETROL", "FUEL OIL"]) { return .nonFuel }
        if any(["E85", "E 85", "FLEX FUEL", "FLEXFUEL", "ETHANOL 85", "E70", "E75", "E83"]) { return .e85 }
        if any(["CNG", "COMPRESSED NATURAL GAS", "NATURAL GAS", "RNG"]) { return .cng }
        if any(["LPG", "PROPANE", "AUTOGAS", "AUTO GAS", "GPL"]) { return .lpg }
        if any(["DIESEL", "ULSD", "DSL", "GASOIL", "GAS OIL", "B5", "B20", "B100", "BIODIESEL", "HVO", "RENEWABLE DIESEL", "DERV",
                "REEFER", "GAZOLE", "GASOLEO", "DIESEL 1", "DIESEL 2", "NO 2", "D2"]) { return .diesel }
        let gasoline = any(["UNLEADED", "UNL", "GASOLINE", "GAS", "PETROL", "REGULAR", "REG", "PLUS", "MIDGRADE", "MID GRADE", "MID",
                            "PREMIUM", "PREM", "SUPER", "SUPREME", "SP95", "SP98", "E10", "E5", "SUPER PLUS", "V POWER", "87", "88", "89",
                            "90", "91", "93", "95", "98"])
        guard gasoline else { return .unknown }
        if any(["PREMIUM", "PREM", "SUPER", "SUPREME", "SUPER PLUS", "V POWER", "91", "93", "98", "SP98"]) { return .gasolinePremium }
        if any(["PLUS", "MIDGRADE", "MID GRADE", "MID", "88", "89", "90"]) { return .gasolineMidgrade }
        if any(["REGULAR", "REG", "87", "95", "SP95", "E10", "E5"]) || (has("UNLEADED") || has("UNL")) { return .gasolineRegular }
        return .gasoline
    }

    /// The motor fuels an asset's fuel type (the assets master's `fuel_type`) takes; nil when the
    /// fuel type is not one FleetKit knows, so nothing can be judged. `hybrid` takes gasoline;
    /// `flex` takes gasoline and E85; `bifuel` (two tanks) takes either of its two fuels, which
    /// master data does not name, so it takes every motor fuel; `electric` takes none.
    public static func accepted(byFuelType fuelType: String) -> Set<FuelProduct>? {
        let gasoline: Set<FuelProduct> = [.gasolineRegular, .gasolineMidgrade, .gasolinePremium, .gasoline]
        switch fuelType {
        case "petrol", "hybrid": return gasoline
        case "flex": return gasoline.union([.e85])
        case "diesel": return [.diesel]
        case "cng": return [.cng]
        case "lpg": return [.lpg]
        case "bifuel": return Set(allCases.filter(\.isMotorFuel))
        case "electric": return []
        default: return nil
        }
    }
}
