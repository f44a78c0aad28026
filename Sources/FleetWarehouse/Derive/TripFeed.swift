import Foundation
import FleetCore

/// Feeds the positions a file stores to their assets' `TripStream`s on a thread of its own, in
/// the order the loading thread stores them, so trip detection and the daily GPS paths are
/// computed while the file loads instead of after it (reading the positions back).
///
/// Why here, behind `WarehouseSink.load(contentsOf:)`: every format that stores positions in
/// batches gets it (GPX, Samsara, ISO 15143, OBD logs…), and no importer has to know it exists.
/// Why a thread: the loading thread (SQLite) is the slower one, and the streams' work (about
/// 0.1 s per million positions) fits in what a scanner thread leaves of the second core. At most
/// `maxBatches` batches wait, so memory stays bounded; the batches are the arrays the loader
/// stored, shared, not copied.
///
/// Messages are handled in the order sent: `begin` before the first batch holding the asset's
/// positions, `drop` as soon as one of its positions was not stored as a new row (the stream
/// would no longer be exactly the stored positions).
final class TripFeed: @unchecked Sendable {
    static let maxBatches = 8

    private enum Message {
        case begin(TripStream)
        case batch([Position])
        case drop(Int64)
    }

    /// Guards everything below it.
    private let lock = NSCondition()
    private var queue: [Message] = []
    private var closed = false, cancelled = false, done = false
    /// Owned by the feed thread until `done`; read by `finish` after.
    private var streams: [Int64: TripStream] = [:]

    init() {
        let thread = Thread { [self] in feed() }
        thread.name = "fleetkit-trips"   // Linux keeps 15 characters
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Starts feeding `stream`'s asset; call before queuing any of its positions.
    func begin(_ stream: TripStream) { send(.begin(stream)) }

    /// Queues positions the loader stored as new rows, waiting while the queue is full.
    /// Positions of assets without a stream are skipped.
    func push(_ batch: [Position]) {
        guard !batch.isEmpty else { return }
        send(.batch(batch))
    }

    /// Stops feeding `asset`: its stream is not used.
    func drop(_ asset: Int64) { send(.drop(asset)) }

    /// Waits until everything queued was fed, ends every run and returns the streams.
    func finish() -> [Int64: TripStream] {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        lock.broadcast()
        while !done { lock.wait() }
        var out: [Int64: TripStream] = [:]
        for (asset, var stream) in streams {
            stream.finish()
            if stream.usable { out[asset] = stream }
        }
        streams = [:]
        return out
    }

    /// Stops feeding (the import failed) and waits for the thread.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        if done { return }
        (closed, cancelled) = (true, true)
        queue.removeAll()
        lock.broadcast()
        while !done { lock.wait() }
    }

    private func send(_ message: Message) {
        lock.lock()
        defer { lock.unlock() }
        while queue.count >= Self.maxBatches, !closed { lock.wait() }
        if closed { return }
        queue.append(message)
        lock.broadcast()
    }

    private func feed() {
        var local: [Int64: TripStream] = [:]
        while let message = next() {
            switch message {
            case .begin(let stream): local[stream.asset] = stream
            case .drop(let asset): local[asset] = nil
            case .batch(let batch):
                // Runs of one asset: one dictionary access per run, not per position.
                var i = 0
                while i < batch.count {
                    let asset = batch[i].assetID
                    var j = i
                    while j < batch.count, batch[j].assetID == asset { j += 1 }
                    if var stream = local.removeValue(forKey: asset) {
                        for k in i ..< j { stream.add(batch[k]) }
                        if stream.usable { local[asset] = stream }
                    }
                    i = j
                }
            }
        }
        lock.lock()
        streams = local
        done = true
        queue.removeAll()
        lock.broadcast()
        lock.unlock()
    }

    /// The next message; nil once closed and drained, or cancelled.
    private func next() -> Message? {
        lock.lock()
        defer { lock.unlock() }
        while queue.isEmpty, !closed { lock.wait() }
        if cancelled || queue.isEmpty { return nil }
        lock.broadcast()
        return queue.removeFirst()
    }
}

/// Owns a `TripFeed` for the sinks that share it (a `WarehouseSink` is a value, copied into
/// wrappers and back), and stops its thread when the last of them is gone without finishing:
/// an import that throws leaves no thread behind.
final class TripFeedOwner {
    let feed = TripFeed()
    deinit { feed.cancel() }
}
