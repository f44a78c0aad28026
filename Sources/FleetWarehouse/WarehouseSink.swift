import GRDB
import FleetCore

/// The `RecordSink` that writes into the warehouse, inside the transaction of one file.
public struct WarehouseSink: RecordSink {
    let db: Database
    public let sourceFileID: Int64
    var loader: Loader
    private var identities = IdentityResolver()
    public private(set) var counts = LoadCounts()
    /// Notes aggregated by kind and bounded (`NoteLedger`): a hostile file cannot grow them.
    private var noteLedger = NoteLedger()
    public var notes: [String] { noteLedger.lines + (moves.note.map { [$0] } ?? []) }
    /// Stored rows this file's updates moved to another month (`periodChange`).
    public internal(set) var moves = PeriodMoves()
    /// The parts of asset timelines this file touched: derived tables are recomputed there.
    public private(set) var touched = TouchedTimeline()
    /// The derivation that follows the load (zone and trip rules): with it, positions loaded in
    /// batches feed trip detection as they are stored (`TripStream`, `TripFeed`).
    public var derive: DeriveSettings?
    /// Whether trip detection is fed while positions load (with `derive`). The tables come out
    /// the same either way; off only to compare the two (GPXTripStreamImportTests).
    public var streamTrips = true
    /// Per asset whose positions this file loads: streaming, or not (nil: none seen yet).
    private var streaming: [Int64: Bool] = [:]
    private var feed: TripFeedOwner?

    public init(db: Database, sourceFileID: Int64) {
        self.db = db
        self.sourceFileID = sourceFileID
        loader = Loader(db)
    }

    public mutating func asset(_ ref: AssetRef) throws -> Int64 {
        try resolve(ref)
    }

    private mutating func resolve(_ ref: AssetRef, master: Bool = false) throws -> Int64 {
        let id = try identities.resolve(ref, in: db, sourceFileID: sourceFileID, master: master)
        for survivor in identities.takeMerged() { touched.touchAll(survivor) }
        for n in identities.takeNotes() { noteLedger.add(n.kind, example: n.example) }
        return id
    }

    public mutating func defineAsset(_ ref: AssetRef, fields: Asset) throws -> LoadOutcome {
        let existed = try findAsset(ref) != nil
        let id = try resolve(ref, master: true)
        // Cached statements, not `Asset.fetchOne(db, key:)` and `update(db)`: those build and
        // authorise their SQL on every call, about half of an assets import's time.
        let before = try Asset.fetchOne(db.cachedStatement(sql: "SELECT * FROM asset WHERE id = ?"), arguments: [id])!
        var after = before
        after.unitNumber = fields.unitNumber ?? before.unitNumber
        after.kind = fields.kind
        after.name = fields.name ?? before.name
        // A feed label kept as the name of a machine it knew only by identifiers
        // (`IdentityResolver.withoutIdentifierName`) is no name once master data gives the
        // machine that identifier as its VIN, PIN or unit number: either order, the same asset.
        if fields.name == nil, let name = after.name,
           [after.unitNumber, before.vin, before.pin].contains(where: { $0?.caseInsensitiveCompare(name) == .orderedSame }) {
            after.name = nil
        }
        after.make = fields.make ?? before.make
        after.model = fields.model ?? before.model
        after.year = fields.year ?? before.year
        after.fuelType = fields.fuelType ?? before.fuelType
        after.licensePlate = fields.licensePlate ?? before.licensePlate
        after.costCenter = fields.costCenter ?? before.costCenter
        after.department = fields.department ?? before.department
        after.assetGroup = fields.assetGroup ?? before.assetGroup
        after.inServiceDate = fields.inServiceDate ?? before.inServiceDate
        after.retiredDate = fields.retiredDate ?? before.retiredDate
        after.acquisitionCostMinor = fields.acquisitionCostMinor ?? before.acquisitionCostMinor
        after.currency = fields.currency ?? before.currency
        after.targetHoursPerWeek = fields.targetHoursPerWeek ?? before.targetHoursPerWeek
        after.tankCapacityMl = fields.tankCapacityMl ?? before.tankCapacityMl
        after.cdlClass = fields.cdlClass ?? before.cdlClass
        after.autoCreated = false
        var compareBefore = before, compareAfter = after
        compareBefore.sourceFileID = nil
        compareAfter.sourceFileID = nil
        let outcome: LoadOutcome = !existed ? .inserted : (compareBefore == compareAfter ? .unchanged : .updated)
        if outcome != .unchanged {
            after.sourceFileID = sourceFileID
            try Self.updateAsset(after, id: id, in: db)
        }
        // Master data's name wins over feed names from now on, in any import order (`AssetNaming`).
        if fields.name != nil {
            try db.execute(sql: "UPDATE asset SET name_from_master = 1 WHERE id = ? AND name_from_master = 0", arguments: [id])
        }
        counts.count(outcome)
        return outcome
    }

    /// Every written column (`Asset.writtenColumns`) but the id, as GRDB's `update(db)` wrote them.
    private static func updateAsset(_ a: Asset, id: Int64, in db: Database) throws {
        try CachedQuery.execute(db, Asset.updateSQL) { Asset.writtenColumns.bind(a, into: &$0); $0.bind(id) }
    }

    // Lookups run once or more per row: cached statements, because compiling the SQL on every
    // call (GRDB's `fetchOne(db, sql:)`) cost more than the query itself.
    public func findAsset(_ ref: AssetRef) throws -> Int64? { try AssetLookup(db).first(ref) }

    public mutating func driver(_ ref: DriverRef) throws -> Int64 {
        if let problem = ref.identifierProblem { throw problem }
        if let id = try findDriver(ref) { return id }
        guard ref.isResolvable else { throw RowError(.unknownDriver, "the row names no driver (no employee id, licence number or vendor id)") }
        let id = try Driver.columnTable.insert(Driver(employeeID: ref.employeeID, name: ref.name, licenseNumber: ref.licenseNumber, autoCreated: true), in: db)
        try linkDriverIdentifiers(ref, to: id)
        return id
    }

    public mutating func defineDriver(_ ref: DriverRef, fields: Driver) throws -> LoadOutcome {
        if let problem = ref.identifierProblem { throw problem }
        let existing = try findDriver(ref)
        let before = try existing.flatMap { try Driver.fetchOne(db.cachedStatement(sql: "SELECT * FROM driver WHERE id = ?"), arguments: [$0]) }
            ?? Driver(employeeID: ref.employeeID, autoCreated: false)
        var after = before
        after.employeeID = fields.employeeID ?? before.employeeID
        after.name = fields.name ?? before.name
        after.licenseNumber = fields.licenseNumber ?? before.licenseNumber
        after.licenseState = fields.licenseState ?? before.licenseState
        after.licenseExpiry = fields.licenseExpiry ?? before.licenseExpiry
        after.licenseClass = fields.licenseClass ?? before.licenseClass
        after.medicalExpiry = fields.medicalExpiry ?? before.medicalExpiry
        after.status = fields.status ?? before.status
        after.phone = fields.phone ?? before.phone
        after.email = fields.email ?? before.email
        after.autoCreated = false
        var a = before, b = after
        a.sourceFileID = nil
        b.sourceFileID = nil
        let outcome: LoadOutcome = existing == nil ? .inserted : (a == b ? .unchanged : .updated)
        var id = existing
        if outcome != .unchanged {
            after.sourceFileID = sourceFileID
            if let existing { try Driver.columnTable.update(after, id: existing, in: db) } else { id = try Driver.columnTable.insert(after, in: db) }
        }
        try linkDriverIdentifiers(ref, to: id!)
        counts.count(outcome)
        return outcome
    }

    /// Vendor ids first, then the employee id, then the licence number. A vendor id or licence
    /// that belongs to a driver with a *different* employee id is not a match: two employees are
    /// never merged on a shared licence, and a vendor id pointing at another employee is refused.
    private func findDriver(_ ref: DriverRef) throws -> Int64? {
        func employee(of id: Int64) throws -> String? {
            try String.fetchOne(db.cachedStatement(sql: "SELECT employee_id FROM driver WHERE id = ?"), arguments: [id])
        }
        for i in ref.identifiers {
            guard let id = try CachedQuery.int64(db, DriverIdentifier.driverSQL, bind: {
                DriverIdentifier.columnTable.bindKey(DriverIdentifier(driverID: 0, source: i.source, idType: i.type, idValue: i.value), into: &$0)
            }) else { continue }
            if let mine = ref.employeeID, let theirs = try employee(of: id), mine != theirs {
                throw RowError(.identityConflict, "\(i.source) \(i.type) \(i.value) already belongs to employee \(theirs), not \(mine); fix the id mapping")
            }
            return id
        }
        if let e = ref.employeeID {
            return try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM driver WHERE employee_id = ?"), arguments: [e])
        }
        if let l = ref.licenseNumber, let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM driver WHERE license_number = ? ORDER BY auto_created, id"), arguments: [l]) { return id }
        return nil
    }

    private func linkDriverIdentifiers(_ ref: DriverRef, to id: Int64) throws {
        for i in ref.identifiers {
            try CachedQuery.execute(db, DriverIdentifier.insertSQL) {
                DriverIdentifier.columnTable.bind(DriverIdentifier(driverID: id, source: i.source, idType: i.type, idValue: i.value), into: &$0)
            }
        }
    }

    @discardableResult
    public mutating func load<R: LoadableRecord>(_ record: R) throws -> LoadOutcome {
        // A position stored on its own is not fed to a stream: its asset streams no more.
        if R.self == Position.self { stopStreaming((record as! Position).assetID) }
        if let asset = Self.signalAsset(record) { signalled(asset) }
        return try upsert(record)
    }

    private mutating func upsert<R: LoadableRecord>(_ record: R) throws -> LoadOutcome {
        // A fact with a period of its own is checked against its stored row first: a DVIR of
        // another day is refused, another fact moved to another month is counted.
        let dated = R.isPeriodRecord ? record as? any PeriodRecord : nil
        let moved = try dated.flatMap { try periodChange($0) }
        // A key another file stored keeps both files' versions, so forgetting either puts the
        // other's back (`RowVersions`); a key only this file stores costs nothing.
        let versioned = RowVersions.keeps(R.self), db = self.db
        let outcome = try loader.upsert(record, beforeUpdate: versioned ? { try RowVersions.keepStored(db, record) } : nil)
        if versioned, outcome != .inserted { try RowVersions.keep(db, record, file: sourceFileID) }
        if let moved, let dated, outcome == .updated { try countMove(dated, from: moved) }
        if R.isFact { counts.count(outcome) }
        if outcome != .unchanged {
            if let t = record as? TimelineRecord { touched.touch(t.timelineAsset, t.timelineAt) }
            if R.self == FuelPurchase.self { touched.touchFuelPurchase(at: (record as! FuelPurchase).at) }
            if let tank = TankCosting.tank(of: record) { touched.touchTank(tank) }
            if R.self == FxRate.self { touched.touchRates() }
        }
        return outcome
    }

    /// Full batches of `Loader.batchRows` rows go through one multi-row INSERT each; a batch that
    /// hits a stored key (an overlapping re-export) or another constraint is undone by SQLite and
    /// loaded row by row instead, as are the next few batches (overlaps come in runs) and the
    /// short tail. Counts and touched spans come out exactly as row-by-row `load` gives them.
    ///
    /// Positions also feed trip detection as they are stored (`TripStream` through `TripFeed`),
    /// whatever format they come from: an asset's stream begins before its first position is
    /// stored and is fed every one stored as a new row; one that was not (a re-export's
    /// overlap) stops its asset's stream, and trip detection then reads the positions back.
    public mutating func load<R: LoadableRecord>(contentsOf records: [R]) throws {
        // The same type at run time: the array is reinterpreted, not copied.
        let positions = R.self == Position.self && derive != nil && streamTrips ? unsafeBitCast(records, to: [Position].self) : nil
        if let positions { try beginStreams(positions) }
        if derive != nil, streamTrips, R.self == EngineEvent.self || R.self == ObdSample.self || R.self == MeterReading.self {
            for record in records { if let asset = Self.signalAsset(record) { signalled(asset) } }
        }
        try records.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(Loader.batchRows, all.count - i)
                let chunk = UnsafeBufferPointer(rebasing: all[i ..< i + n])
                i += n
                if n == Loader.batchRows, rowByRowBatches == 0 {
                    if try loader.insertAll(chunk) {
                        if R.isFact { counts.loaded += n }
                        touch(inserted: chunk)
                        continue
                    }
                    rowByRowBatches = 8
                } else if rowByRowBatches > 0 {
                    rowByRowBatches -= 1
                }
                for record in chunk {
                    let outcome = try upsert(record)
                    if positions != nil, outcome != .inserted { stopStreaming((record as! Position).assetID) }
                }
            }
        }
        if let positions, let feed {
            feed.feed.push(positions)
            streamedLoads += 1
        }
    }

    /// Begins a stream for each asset of `positions` seen for the first time in this file, when
    /// the warehouse allows an exact one (`TripStream.init`), before any of them is stored.
    private mutating func beginStreams(_ positions: [Position]) throws {
        guard let derive else { return }
        var last = Int64.min
        for p in positions where p.assetID != last {
            last = p.assetID
            guard streaming[last] == nil else { continue }
            if let stream = try TripStream(db, asset: last, firstAt: p.at, settings: derive) {
                if feed == nil { feed = TripFeedOwner() }
                feed!.feed.begin(stream)
                streaming[last] = true
            } else {
                streaming[last] = false
            }
        }
    }

    /// The asset of an engine event, OBD RPM or speed sample, or odometer or engine-hours
    /// reading: with one loaded, the asset's stream would be refused after the load
    /// (`TripStream.result`), so it is stopped now rather than fed in vain, or never begun when
    /// the signal comes first (a Samsara page lists odometers and engine states before GPS:
    /// beginning a stream per vehicle and page cost 3.5 % more CPU for nothing).
    private static func signalAsset<R: LoadableRecord>(_ record: R) -> Int64? {
        if R.self == EngineEvent.self { return (record as! EngineEvent).assetID }
        if R.self == ObdSample.self { let o = record as! ObdSample; return o.pid == 12 || o.pid == 13 ? o.assetID : nil }
        if R.self == MeterReading.self {
            let m = record as! MeterReading
            return m.meter == "odometer" || m.meter == "engine_hours" ? m.assetID : nil
        }
        return nil
    }

    /// The asset of the last signal seen: a file of one vehicle's samples costs one dictionary
    /// access, not one per sample.
    private var lastSignalled = Int64.min

    private mutating func signalled(_ asset: Int64) {
        guard asset != lastSignalled else { return }
        lastSignalled = asset
        stopStreaming(asset)
    }

    /// Position batches fed to streams: a savepoint undone after one was fed stops every stream.
    private var streamedLoads = 0

    /// No stream for `asset` from now on (and none begun later in this file).
    private mutating func stopStreaming(_ asset: Int64) {
        if streaming[asset] == true { feed?.feed.drop(asset) }
        streaming[asset] = false
    }

    /// Ends trip detection fed while the file loaded: the streams still exact, by asset, for
    /// `Derivations.refresh`. Call once the file's rows are all loaded.
    public mutating func finishTripStreams() -> [Int64: TripStream] {
        defer { feed = nil }
        return feed?.feed.finish() ?? [:]
    }

    /// The derivations that follow the file's load, over what it changed (`touched`), with the
    /// trip runs fed while it loaded: trips, the daily rollup, fuel purchase links. Then the
    /// trips of the days they rewrote must fit those days' totals (`TripDayTotalsCheck.enforce`,
    /// which throws: the file's load fails whole rather than leave `verify` to find them).
    public mutating func deriveAfterLoad() throws {
        let streams = finishTripStreams()
        let settings = derive ?? DeriveSettings()
        let rewritten = try Derivations.refresh(db, touched: touched, settings: settings, streams: streams)
        try TripDayTotalsCheck.enforce(db, touched: rewritten, zone: settings.zone)
    }

    /// Batches still to load row by row after one that conflicted.
    private var rowByRowBatches = 0

    /// `touched` for rows that were all inserted: one update per run of the same asset instead
    /// of a dictionary lookup per row.
    private mutating func touch<R: LoadableRecord>(inserted rows: UnsafeBufferPointer<R>) {
        if R.self == FuelPurchase.self {
            for row in rows { touched.touchFuelPurchase(at: (row as! FuelPurchase).at) }
        }
        if R.self == FxRate.self, !rows.isEmpty { touched.touchRates() }
        if TankCosting.isTankRecord(R.self) {
            for row in rows { if let tank = TankCosting.tank(of: row) { touched.touchTank(tank) } }
        }
        var asset = Int64.min, low = Int64.max, high = Int64.min
        for row in rows {
            guard let t = row.timelinePoint else { return }
            if t.asset != asset {
                if asset != Int64.min { touched.touch(asset, low); touched.touch(asset, high) }
                (asset, low, high) = (t.asset, t.at, t.at)
            } else {
                low = min(low, t.at)
                high = max(high, t.at)
            }
        }
        if asset != Int64.min { touched.touch(asset, low); touched.touch(asset, high) }
    }

    public func id<R: LoadableRecord>(of record: R) throws -> Int64? { try loader.id(of: record) }

    public mutating func atomically(_ body: (inout WarehouseSink) throws -> Void) throws {
        let saved = counts, savedTouched = touched, savedStreamed = streamedLoads, savedMoves = moves
        try db.cachedStatement(sql: "SAVEPOINT fleetkit_row").execute()
        do {
            try body(&self)
            try db.cachedStatement(sql: "RELEASE fleetkit_row").execute()
        } catch {
            // After SQLITE_FULL or an I/O error SQLite may already have rolled back the whole
            // transaction, and then ROLLBACK TO fails too (SQLITE_ABORT). The first error is the
            // cause (a full disk, not "error 4: ROLLBACK TO"), so it is the one thrown.
            do {
                try db.cachedStatement(sql: "ROLLBACK TO fleetkit_row").execute()
                try db.cachedStatement(sql: "RELEASE fleetkit_row").execute()
            } catch _ where error is DatabaseError {
                throw error
            }
            counts = saved
            moves = savedMoves
            touched = savedTouched
            // Positions the stream saw may have been undone: no stream is exact any more.
            if streamedLoads != savedStreamed {
                for (asset, on) in streaming where on { stopStreaming(asset) }
            }
            identities = IdentityResolver()   // cached ids may name rows that were rolled back
            throw error
        }
    }

    public mutating func note(_ message: String) { noteLedger.add(message) }

    public mutating func note(_ kind: String, example: String) { noteLedger.add(kind, example: example) }

    public mutating func reject(_ issue: Issue) throws {
        try Reject.columnTable.insert(Reject(sourceFileID: sourceFileID, location: issue.location, reason: issue.reason.rawValue,
                                             message: issue.message, raw: issue.raw, rowTable: issue.row?.table, rowKey: issue.row?.key,
                                             amountMinor: issue.row?.amountMinor, currency: issue.row?.currency, at: issue.row?.at), in: db)
        counts.rejected += 1
    }
}
