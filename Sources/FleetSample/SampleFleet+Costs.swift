import Foundation
import FleetCore

/// Fuel-card transactions that follow the fuel each vehicle burned, and the month's other costs.
extension SampleWriter {
    /// The fuel a driver refills at: 70 % of this used. One tank's worth: a tractor's two tanks
    /// are refilled one at a time.
    static let tankLitres: [String: Double] = ["Pickups": 98, "Vans": 95, "Tractors": 450, "Box trucks": 132, "Sedans": 43]
    /// The fuel tank's capacity written to the assets master (`tank_capacity_gal`), in US
    /// gallons as the makers state it: F-150 26, Transit 25, Cascadia two 120-gallon tanks,
    /// NPR-HD 35, Prius 11.3. The refill model's fills stay within it and its 5 % tolerance
    /// (docs/METRICS.md, "Fuel exceptions"). Machines have none: they take on-site fuel
    /// (`writeBulkFuel`).
    static let tankCapacityGallons: [String: Double] = ["Pickups": 26, "Vans": 25, "Tractors": 240, "Box trucks": 35, "Sedans": 11.3]
    /// Fills paid off the card, with no receipt (unit → which fill of the month): the tank and
    /// the fuel-used meter see them, the card file does not, so `fuel-exceptions` finds the unit
    /// under in bought against burned (docs/METRICS.md).
    static let offCardFills: [String: Int] = ["T-05": 2]

    mutating func writeCosts() throws {
        var fuelRows: [(String, [String])] = []
        var txn = 0
        let stations = [("Pilot Travel Center #412", "Joliet", "IL"), ("Shell", "Naperville", "IL"), ("BP", "Gary", "IN"),
                        ("Casey's #2231", "Aurora", "IL"), ("Love's #389", "Kenosha", "WI"), ("Speedway", "Hammond", "IN")]
        for (i, a) in fleet.assets.enumerated() where a.model.kind == "vehicle" {
            var rng = SeededRandom(seed: fleet.seed).fork(UInt64(2000 + i))
            let tank = Self.tankLitres[a.model.group] ?? 80
            let card = "7071" + String(format: "%012d", 40_000_000 + i * 7919)
            var sinceFill = rng.double(0...(tank * 0.5))
            var fills = 0
            for day in fleet.usage(of: i) where day.operated {
                sinceFill += day.fuelLitres
                guard sinceFill >= tank * 0.7 else { continue }
                txn += 1
                fills += 1
                let gallons = sinceFill / (Units.millilitresPerUSGallon / 1000)
                let diesel = a.model.fuel == "diesel"
                let price = diesel ? rng.double(3.659...3.949) : rng.double(3.049...3.459)
                let priceText = SampleWriter.decimal(price, 3)
                let total = (gallons * (Double(priceText) ?? price) * 100).rounded() / 100
                let (station, city, state) = rng.pick(stations)
                let time = "\(String(format: "%02d", rng.int(6...17))):\(String(format: "%02d", rng.int(0...59))):00"
                let odometerMi = (day.odometerKmAtStart + day.km * 0.6) * 1000 / Units.metresPerMile
                let driver = a.driver.map { fleet.drivers[$0].employeeID } ?? ""
                if Self.offCardFills[a.unit] == fills { sinceFill = 0; continue }
                fuelRows.append((day.date.description + time + a.unit,
                                 ["T\(idPrefix)\(String(format: "%05d", txn))", day.date.description, time, card, a.unit, driver, station, city, state,
                                  diesel ? "Diesel #2" : "Unleaded Regular", SampleWriter.decimal(gallons, 3), priceText,
                                  SampleWriter.decimal(total, 2), "USD", String(Int(odometerMi.rounded()))]))
                sinceFill = 0
            }
        }
        fuelRows.sort { $0.0 < $1.0 }
        try write(SampleWriter.csv(["transaction_id", "transaction_date", "transaction_time", "card_number", "unit_number", "driver_id",
                                    "merchant", "merchant_city", "merchant_state", "fuel_grade", "gallons", "price_per_gallon", "total",
                                    "currency", "odometer_mi"], fuelRows.map(\.1)),
                  to: "fuel-card/fuel-card-\(fleet.start.year)-\(String(format: "%02d", fleet.start.month)).csv")

        // Other costs of the month: insurance and registration per asset, tolls for the road
        // fleet, tyres and parts now and then, costs with no asset, and two foreign currencies.
        var rows: [[String]] = []
        var n = 0
        func add(_ date: CivilDate, _ category: String, _ amount: Double, _ currency: String, _ vendor: String, _ description: String, _ unit: String) {
            n += 1
            rows.append(["EXP-\(fleet.start.year)\(String(format: "%02d", fleet.start.month))-\(String(format: "%04d", n))", date.description,
                         category, SampleWriter.decimal(amount, currency == "JPY" ? 0 : 2), currency, vendor, description, unit])
        }
        var rng = SeededRandom(seed: fleet.seed).fork(3000)
        for a in fleet.assets {
            add(fleet.start, "insurance", a.model.kind == "equipment" ? rng.double(420...690) : rng.double(145...310), "USD",
                "Great Lakes Fleet Insurance", "Monthly premium", a.unit)
            if a.model.group == "Tractors" {
                for _ in 0..<rng.int(3...7) {
                    add(fleet.start.adding(days: rng.int(0...(fleet.days - 1))), "tolls", rng.double(4.5...38), "USD", "I-PASS", "Tollway", a.unit)
                }
            }
            if rng.chance(0.12) {
                add(fleet.start.adding(days: rng.int(0...(fleet.days - 1))), "tires", rng.double(480...1_900), "USD", "Midwest Tire Co", "Tire replacement", a.unit)
            }
            if rng.chance(0.15) {
                add(fleet.start.adding(days: rng.int(0...(fleet.days - 1))), "parts", rng.double(35...640), "USD", "Fleet Parts Direct", "Wipers, filters, bulbs", a.unit)
            }
        }
        for v in fleet.assets.filter({ $0.model.group == "Vans" }) {
            add(fleet.start.adding(days: 4), "lease", 689.00, "USD", "Ryder Leasing", "Monthly lease", v.unit)
        }
        if let t = fleet.assets.first(where: { $0.model.group == "Tractors" }) {
            add(fleet.start.adding(days: 9), "registration", 2_790.00, "USD", "Illinois Secretary of State", "Apportioned plates renewal", t.unit)
        }
        add(fleet.start.adding(days: 2), "other", 1_249.00, "USD", "Fleet Software Inc", "Telematics subscription (all units)", "")
        add(fleet.start.adding(days: 16), "other", 310.50, "USD", "Office Depot", "DVIR forms and binders", "")
        if let m = fleet.assets.first(where: { $0.model.make == "Komatsu" }) {
            add(fleet.start.adding(days: 12), "repair", 4_365.20, "CAD", "Toromont CAT (Canada)", "Hydraulic hose assembly, cross-border job", m.unit)
        }
        if let m = fleet.assets.first(where: { $0.model.make == "John Deere" }) {
            add(fleet.start.adding(days: 20), "parts", 1_128.40, "EUR", "Deere Parts Mannheim", "Cab filter set (imported)", m.unit)
        }
        // Business-day reference rates for the two foreign currencies (a rate holds until the
        // next). A day's rate is a function of the seed and the date only, so the samples of
        // two months agree on the days both list.
        var fx: [[String]] = []
        for d in -3..<fleet.days {
            let day = fleet.start.adding(days: d)
            let weekday = (day.daysSinceEpoch + 4) % 7
            guard weekday != 0, weekday != 6 else { continue }
            var dayRng = SeededRandom(seed: fleet.seed).fork(3100).fork(UInt64(bitPattern: Int64(day.daysSinceEpoch)))
            fx.append([day.description, "CAD", SampleWriter.decimal(1.3712 * (1 + dayRng.double(-0.01...0.01)), 4)])
            fx.append([day.description, "EUR", SampleWriter.decimal(0.9231 * (1 + dayRng.double(-0.01...0.01)), 4)])
        }
        try write(SampleWriter.csv(["date", "currency", "per_base"], fx), to: "master/fx-rates.csv")

        try write(SampleWriter.csv(["expense_id", "date", "category", "amount", "currency", "vendor", "description", "unit_number"], rows),
                  to: "expenses/expenses-\(fleet.start.year)-\(String(format: "%02d", fleet.start.month)).csv")
    }
}
