import Foundation
import FleetCore

/// The sample fleet: who and what exists, and how each asset is used day by day.
///
/// Every file the generator writes is derived from this one model, so the files agree with each
/// other: fuel bought follows distance driven, maintenance follows the odometer, DVIRs are filed
/// on the days a vehicle operates.
public struct SampleFleet {
    public struct Model: Sendable {
        public var make: String, model: String, group: String, kind: String, fuel: String
        public var costCenter: String, department: String
        /// WMI + VDS (first 8 characters) of the VIN, or the PIN prefix for machines.
        public var idPrefix: String
        public var year: Int
        public var costMinor: Int64
        /// Typical use per working day: km for vehicles, engine hours for machines.
        public var dailyKm: ClosedRange<Double>, dailyHours: ClosedRange<Double>
        /// Fuel use: L/100 km for vehicles, L/h for machines.
        public var fuelRate: Double
        public var targetHoursPerWeek: Double
        public var telematics: String   // samsara | jdlink | komtrax
    }

    public struct Asset: Sendable {
        public var unit: String
        public var model: Model
        public var vin: String?
        public var pin: String?
        public var samsaraID: String?
        public var inService: CivilDate
        public var odometerKm: Double      // at the start of the sample period
        public var engineHours: Double     // at the start of the sample period
        public var idleHours = 0.0         // at the start of the sample period
        public var fuelLitres = 0.0        // burned since in service, at the start of the sample period
        public var driver: Int?            // index into drivers
    }

    public struct Driver: Sendable {
        public var employeeID: String, name: String, license: String, state: String, expiry: CivilDate, samsaraID: String
        /// The medical examiner's certificate's expiry (49 CFR 391.45: at most 24 months).
        public var medicalExpiry: CivilDate
    }

    /// One asset's use on one local day.
    public struct Day: Sendable {
        public var date: CivilDate
        public var operated: Bool
        public var km: Double
        public var engineHours: Double
        public var idleHours: Double
        public var fuelLitres: Double
        public var odometerKmAtStart: Double
        public var engineHoursAtStart: Double
    }

    public var assets: [Asset]
    public var drivers: [Driver]
    public var start: CivilDate
    public var days: Int
    public var seed: UInt64
    public let zone = FleetZone(identifier: "America/Chicago")!

    public init(vehicles: Int = 25, machines: Int = 8, start: CivilDate = CivilDate(year: 2026, month: 10, day: 1)!, days: Int = 31, seed: UInt64 = 42) {
        self.start = start
        self.days = days
        self.seed = seed
        var rng = SeededRandom(seed: seed)
        let first = ["Ana", "Ben", "Carla", "Dmitri", "Elena", "Farid", "Grace", "Hector", "Ines", "Jamal", "Kim", "Luis", "Maya", "Nate",
                     "Olga", "Priya", "Quinn", "Rosa", "Sam", "Tariq", "Uma", "Victor", "Wendy", "Xavier", "Yusuf", "Zoe", "Aaron", "Bea"]
        let last = ["Alvarez", "Brooks", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Haddad", "Ito", "Johnson", "Kowalski", "Lopez",
                    "Murphy", "Nguyen", "Okafor", "Patel", "Quintero", "Reyes", "Smith", "Tanaka", "Usman", "Vargas", "Walker", "Young"]
        drivers = (0..<max(vehicles + 3, 1)).map { i in
            Driver(employeeID: "E-\(1001 + i)", name: "\(first[i % first.count]) \(last[(i * 7) % last.count])",
                   license: "D\(rng.int(100_000_000...999_999_999))", state: rng.pick(["IL", "IN", "WI", "MO"]),
                   expiry: CivilDate(year: 2027 + i % 4, month: 1 + i % 12, day: 1 + i % 28)!, samsaraID: String(52_000_000 + i * 37),
                   // A function of the driver, never of the random draws (which stay as they were)
                   // nor of the sample's start. E-1002 (T-02's driver) let the card lapse after
                   // 2026-10-20: the DVIR compliance report lists the days driven after it.
                   medicalExpiry: i == 1 ? CivilDate(year: 2026, month: 10, day: 20)! : CivilDate(year: 2027 + i % 2, month: 1 + (i * 5) % 12, day: 1 + (i * 11) % 28)!)
        }
        var assets: [Asset] = []
        let roadModels = SampleFleet.roadModels, machineModels = SampleFleet.machineModels
        for i in 0..<vehicles {
            let m = roadModels[i % roadModels.count]
            let serial = String(100_000 + i * 131)
            let inService = CivilDate(year: m.year, month: 1 + (i * 5) % 12, day: 1 + (i * 3) % 27)!
            assets.append(Asset(unit: "T-\(String(format: "%02d", i + 1))", model: m,
                                vin: SampleFleet.vin(prefix: m.idPrefix, year: m.year, serial: serial),
                                samsaraID: String(281_474_977_075_800 + i * 17), inService: inService,
                                odometerKm: 0, engineHours: 0, driver: i))
        }
        for i in 0..<machines {
            let m = machineModels[i % machineModels.count]
            let yearCode = Array("ABCDEFGHJKLMNPRSTVWXY123456789")[(m.year - 2010) % 30]
            let pin = m.idPrefix + "C" + String(yearCode) + "F" + String(format: "%06d", 600_000 + i * 977)
            let inService = CivilDate(year: m.year, month: 3 + i % 9, day: 10)!
            assets.append(Asset(unit: "M-\(String(format: "%02d", i + 1))", model: m, pin: pin, inService: inService, odometerKm: 0,
                                engineHours: 0, driver: nil))
        }
        self.assets = assets
        // Meters at the start are every day's use since the asset entered service, added in
        // date order: the sample of the next month starts exactly where this one ends, so two
        // months imported together have meters that only go forward.
        for i in self.assets.indices {
            var meters = Meters()
            var date = self.assets[i].inService
            while date < start {
                meters.add(use(of: i, on: date))
                date = date.adding(days: 1)
            }
            self.assets[i].odometerKm = meters.km
            self.assets[i].engineHours = meters.hours
            self.assets[i].idleHours = meters.idle
            self.assets[i].fuelLitres = meters.fuel
        }
    }

    /// One asset's use on one local day, rounded as the meters count it (0.1 km, 0.01 h, 0.1 L).
    public struct Use: Sendable, Equatable {
        public var operated: Bool
        public var km: Double, engineHours: Double, idleHours: Double, fuelLitres: Double
    }

    /// Running meter totals, added day by day in date order.
    struct Meters {
        var km = 0.0, hours = 0.0, idle = 0.0, fuel = 0.0
        mutating func add(_ u: Use) {
            km += u.km
            hours += u.engineHours
            idle += u.idleHours
            fuel += u.fuelLitres
        }
    }

    /// The asset's use on `date`: a function of the seed, the asset and the date only, never of
    /// the sample's start, so every sample that covers a day tells the same story of it (the
    /// October and November samples agree on the meters, services and fuel of every day).
    /// Weekdays worked, weekends mostly parked.
    public func use(of index: Int, on date: CivilDate) -> Use {
        var rng = SeededRandom(seed: seed).fork(UInt64(index + 1)).fork(UInt64(bitPattern: Int64(date.daysSinceEpoch)))
        let a = assets[index]
        let weekday = (date.daysSinceEpoch + 4) % 7   // 0 = Sunday
        let operated = weekday == 0 || weekday == 6 ? rng.chance(0.1) : rng.chance(0.92)
        var km = 0.0, h = 0.0, idle = 0.0, fuel = 0.0
        if operated {
            if a.model.kind == "equipment" {
                h = rng.double(a.model.dailyHours)
                idle = h * rng.double(0.18...0.38)
                fuel = h * a.model.fuelRate * rng.double(0.85...1.15)
            } else {
                km = rng.double(a.model.dailyKm)
                h = km / rng.double(32...55)
                idle = h * rng.double(0.08...0.25)
                h += idle
                fuel = km * a.model.fuelRate / 100 * rng.double(0.92...1.08)
            }
        }
        return Use(operated: operated, km: (km * 10).rounded() / 10, engineHours: (h * 100).rounded() / 100,
                   idleHours: (idle * 100).rounded() / 100, fuelLitres: (fuel * 10).rounded() / 10)
    }

    /// The asset's days over the sample period, with the meters at the start of each.
    public func usage(of index: Int) -> [Day] {
        let a = assets[index]
        var odo = a.odometerKm, hours = a.engineHours
        var out: [Day] = []
        out.reserveCapacity(days)
        for d in 0..<days {
            let date = start.adding(days: d)
            let u = use(of: index, on: date)
            out.append(Day(date: date, operated: u.operated, km: u.km, engineHours: u.engineHours, idleHours: u.idleHours,
                           fuelLitres: u.fuelLitres, odometerKmAtStart: odo, engineHoursAtStart: hours))
            odo += u.km
            hours += u.engineHours
        }
        return out
    }

    /// A VIN with a correct North American check digit (49 CFR 565.15).
    static func vin(prefix: String, year: Int, serial: String) -> String {
        let yearCodes = Array("ABCDEFGHJKLMNPRSTVWXY123456789")
        let yearCode = yearCodes[(year - 2010) % 30]
        var chars = Array(prefix + "0" + String(yearCode) + "P" + serial.suffix(6).description)
        precondition(chars.count == 17, "VIN template \(prefix) must give 17 characters")
        let weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
        let sum = chars.enumerated().reduce(0) { $0 + (VIN.transliteration($1.element) ?? 0) * weights[$1.offset] }
        chars[8] = sum % 11 == 10 ? "X" : Character(String(sum % 11))
        return String(chars)
    }
}
