import Foundation
import FleetCore
import FleetWarehouse

/// Scans a GPX file on a second thread while the calling thread loads what it found.
///
/// Why two threads: per million points SQLite's inserts take about 0.7 s of CPU and the scanner
/// about 0.4 s (its fast path; 0.6 s before), so on one thread the import could not pass about
/// 600 k points/s even before trips and the daily rollup; overlapped, the wall time approaches
/// the slower of the two. Why a plain `Thread` and a lock: the sink (and
/// its database connection) must stay on the calling thread, which blocks inside a synchronous
/// `Importer.read`; Swift concurrency would need the caller to be async.
///
/// The scanner thread produces exactly the sink calls the one-thread importer made, in file
/// order: a batch of points every `batchSize` points, and before each reject the points read
/// since the last batch (possibly none), then the reject. The calling thread replays them, so
/// rows, rejects (location and raw text are taken on the scanner thread, while the point is
/// still in its window), counts and `load(contentsOf:)` boundaries are unchanged.
///
/// The warehouse feeds trip detection with the batches as it stores them (`TripFeed`, behind
/// `RecordSink.load(contentsOf:)`), on a thread of its own.
///
/// At most `maxChunks` chunks wait in the queue, and a chunk ends at a full batch, at
/// `batchSize` points in short batches (before rejects), or at `chunkItems` sink calls, so memory
/// stays bounded whatever the file size: under 2 MB of points in flight. When the file is
/// malformed, the chunks produced before the error are loaded first, then the error is thrown
/// on the calling thread, as the one-thread scan threw it after those points. When the sink
/// throws, the scanner thread is told to stop and `run` waits for it before rethrowing: no
/// thread outlives the call.
final class GPXPipeline: @unchecked Sendable {
    /// One sink call, as the one-thread importer made it.
    enum Item {
        case points([Position])
        case reject(Issue)
        /// A fix dropped as impossible against its neighbours (`FixJudge`): a note, with its place.
        case dropped(String)
    }

    /// A track point that became a fix, with what names its place in the file.
    struct Fix {
        var position: Position
        var point: (track: Int, segment: Int, index: Int, line: Int)
    }

    /// The note kind of a dropped fix.
    static let droppedKind = "fixes impossible (over 70 m/s, less the 15 m jitter radius) against two neighbouring fixes that agree were dropped: a receiver's stale power-on position or a lone spike, not where the vehicle was"

    static let maxChunks = 4
    /// Items per chunk before it is handed over when it holds no full batch (rejects).
    static let chunkItems = 64

    private let scanner: GPXScanner
    private let asset: Int64, file: Int64, batchSize: Int

    /// Guards everything below it.
    private let lock = NSCondition()
    private var queue: [[Item]] = []
    private var finished = false
    private var cancelled = false
    private var failure: (any Error)?
    /// Points the scanner thread has read (tests check that it stops early when the sink fails).
    private var scanned = 0
    /// Route points and waypoints seen, and routes holding them: never positions (see `produce`).
    private var planned = (routePoints: 0, routes: Set<Int>(), waypoints: 0)

    /// Thrown inside the scanner thread to unwind the scan when the loader has failed.
    private struct Cancelled: Error {}

    init(scanner: GPXScanner, asset: Int64, file: Int64, batchSize: Int) {
        self.scanner = scanner
        self.asset = asset
        self.file = file
        self.batchSize = batchSize
    }

    /// Points read by the scanner thread, rejected ones included.
    var pointsScanned: Int { lock.lock(); defer { lock.unlock() }; return scanned }

    /// Route points (in how many routes) and waypoints the file held, none stored; read after `run`.
    var plannedPoints: (routePoints: Int, routes: Int, waypoints: Int) {
        lock.lock(); defer { lock.unlock() }
        return (planned.routePoints, planned.routes.count, planned.waypoints)
    }

    /// Scans on a second thread and replays its sink calls here; returns when the file is done
    /// and the scanner thread has finished.
    func run(into sink: inout some RecordSink) throws {
        let thread = Thread { [self] in produce() }
        thread.name = "fleetkit-gpx"   // Linux keeps 15 characters; a longer name is not set
        thread.stackSize = 8 << 20
        thread.start()
        do {
            while let chunk = try take() {
                for item in chunk {
                    switch item {
                    case .points(let batch): try sink.load(contentsOf: batch)
                    case .reject(let issue): try sink.reject(issue)
                    case .dropped(let example): sink.note(Self.droppedKind, example: example)
                    }
                }
            }
        } catch {
            stopScanner()
            throw error
        }
    }

    // MARK: Calling thread

    /// The next chunk in file order; nil at the end; the scanner's error once its chunks are done.
    private func take() throws -> [Item]? {
        lock.lock()
        defer { lock.unlock() }
        while queue.isEmpty, !finished { lock.wait() }
        if !queue.isEmpty {
            lock.broadcast()
            return queue.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the scanner thread to stop and waits until it has (Foundation's `Thread` has no
    /// join: `finished` is the thread's last write, after which it only returns).
    private func stopScanner() {
        lock.lock()
        cancelled = true
        queue.removeAll()
        lock.broadcast()
        while !finished { lock.wait() }
        lock.unlock()
    }

    // MARK: Scanner thread

    private func produce() {
        var chunk: [Item] = []
        var batch: [Position] = []
        batch.reserveCapacity(batchSize)
        var count = 0, chunkPoints = 0
        var routePoints = 0, routes = Set<Int>(), waypoints = 0
        // Stored before `finish`, whose `finished = true` lets the loading thread read them.
        func keepPlanned() {
            lock.lock()
            planned = (routePoints, routes, waypoints)
            lock.unlock()
        }
        let scanner = scanner, asset = asset, file = file, batchSize = batchSize
        // Each fix goes to the batch once the judge knows it is possible (at once, unless it
        // is the first fix or a jump from the previous one): see FixJudge.
        var judge = FixJudge<Fix>(time: { $0.position.at }, place: { ($0.position.lat, $0.position.lon) })
        func keep(_ fix: Fix) throws {
            batch.append(fix.position)
            if batch.count == batchSize {
                chunk.append(.points(batch))
                batch = []
                batch.reserveCapacity(batchSize)
                try push(&chunk, scanned: count)
                chunkPoints = 0
            }
        }
        func drop(_ verdict: FixJudge<Fix>.Verdict) {
            // Short: a note keeps 80 characters of an example. The line finds the point.
            let speeds = verdict.speeds.map { $0.isFinite ? "\(Int($0.rounded())) m/s" : "no time" }
            chunk.append(.dropped("line \(verdict.fix.point.line) \(Timestamp.iso(verdict.fix.position.at)): \(speeds.joined(separator: ", "))"))
        }
        do {
            try scanner.scan { point in
                count += 1
                // Only a track point is a fix of the vehicle. A route (`<rte>`) is a plan: the
                // turn points of a drive to come, whose `<time>` (GPX 1.1: "creation/modification
                // timestamp") is not when the vehicle was there; a waypoint is a place (depot,
                // fuel stop). Neither becomes a position nor a reject: the importer notes them once.
                switch point.kind {
                case .routePoint: routePoints += 1; routes.insert(point.track); return
                case .waypoint: waypoints += 1; return
                case .trackPoint: break
                }
                guard point.problem == nil, let at = point.time, let lat = point.lat, let lon = point.lon else {
                    chunk.append(.points(batch))
                    chunkPoints += batch.count
                    batch = []
                    batch.reserveCapacity(batchSize)
                    let problem = point.problem ?? GPXPoint.Problem(reason: .badValue, message: "unusable point")
                    chunk.append(.reject(Issue(problem.reason, at: "\(point.path), line \(point.line)", problem.message, raw: scanner.rawText())))
                    if chunk.count >= Self.chunkItems || chunkPoints >= batchSize {
                        try push(&chunk, scanned: count)
                        chunkPoints = 0
                    }
                    return
                }
                let fix = Fix(position: Position(assetID: asset, at: at, lat: lat, lon: lon, speedMps: point.speed,
                                                 headingDeg: point.course, altM: point.ele, sourceFileID: file),
                              point: (point.track, point.segment, point.index, point.line))
                try judge.add(fix, keep: keep, drop: drop)
            }
            try judge.finish(keep: keep, drop: drop)
            chunk.append(.points(batch))
            keepPlanned()
            finish(chunk, nil, scanned: count)
        } catch is Cancelled {
            keepPlanned()
            finish([], nil, scanned: count)
        } catch {
            // The points of an unfinished batch were never loaded by the one-thread scan either.
            keepPlanned()
            finish(chunk, error, scanned: count)
        }
    }

    /// Hands a chunk over, waiting while the queue is full; throws `Cancelled` once the loader failed.
    private func push(_ chunk: inout [Item], scanned count: Int) throws {
        lock.lock()
        defer { lock.unlock() }
        scanned = count
        while queue.count >= Self.maxChunks, !cancelled { lock.wait() }
        if cancelled { throw Cancelled() }
        queue.append(chunk)
        lock.broadcast()
        chunk = []
    }

    /// The last chunk (unbounded: at most one more) and the scan's error, if any.
    private func finish(_ chunk: [Item], _ error: (any Error)?, scanned count: Int) {
        lock.lock()
        scanned = count
        if !cancelled, !chunk.isEmpty { queue.append(chunk) }
        failure = error
        finished = true
        lock.broadcast()
        lock.unlock()
    }
}
