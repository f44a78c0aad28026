import Foundation
import FleetWarehouse

/// Feeds a GPX file's positions to a `TripStream` on a thread of its own, in the order the
/// loading thread stores them, so trip detection and the daily GPS paths are computed while the
/// file loads instead of after it (reading the positions back).
///
/// Why a third thread: the loading thread (SQLite) is the slower of the pipeline's two, and the
/// stream's work (about 0.1 s per million positions) fits in what the scanner thread leaves of
/// the second core. At most `maxBatches` batches wait, so memory stays bounded; the batches are
/// the arrays the loader stored, shared, not copied.
final class GPXTripFeed: @unchecked Sendable {
    static let maxBatches = 8

    /// Guards everything below it.
    private let lock = NSCondition()
    private var queue: [[Position]] = []
    private var closed = false, cancelled = false, done = false
    private var stream: TripStream

    init(_ stream: TripStream) {
        self.stream = stream
        let thread = Thread { [self] in feed() }
        thread.name = "fleetkit-trips"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues a batch the loader stored, waiting while the queue is full.
    func push(_ batch: [Position]) {
        guard !batch.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        while queue.count >= Self.maxBatches, !done { lock.wait() }
        if done { return }   // the stream became unusable: nothing more is fed
        queue.append(batch)
        lock.broadcast()
    }

    /// Waits until every queued position was fed, ends the run and returns the stream.
    func finish() -> TripStream {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        lock.broadcast()
        while !done { lock.wait() }
        stream.finish()
        return stream
    }

    /// Stops feeding (the import failed) and waits for the thread.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        (closed, cancelled) = (true, true)
        queue.removeAll()
        lock.broadcast()
        while !done { lock.wait() }
    }

    private func feed() {
        while let batch = next() {
            for p in batch { stream.add(p) }
            if !stream.usable { break }
        }
        lock.lock()
        done = true
        queue.removeAll()
        lock.broadcast()
        lock.unlock()
    }

    /// The next batch; nil once closed and drained, or cancelled.
    private func next() -> [Position]? {
        lock.lock()
        defer { lock.unlock() }
        while queue.isEmpty, !closed { lock.wait() }
        if cancelled || queue.isEmpty { return nil }
        lock.broadcast()
        return queue.removeFirst()
    }
}
