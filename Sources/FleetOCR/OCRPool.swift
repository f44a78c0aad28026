import Foundation

/// Tesseract engines shared by worker threads: at most `workers` engines (one per core by
/// default), each created once, lent to one thread at a time and reused for every image.
///
/// Creating an engine loads the traineddata (tens of milliseconds, about 40 MB), so engines
/// are kept for the pool's lifetime and ended and deleted when it goes away. One thread per
/// engine and one engine per core is the fast arrangement here: Debian's libtesseract would
/// otherwise spread each call over every core with OpenMP (see `OMP_THREAD_LIMIT` in fleetkit).
public final class OCRPool: @unchecked Sendable {
    public let workers: Int
    private let language: String
    private let dataPath: String?
    private let condition = NSCondition()
    private var idle: [OCREngine] = []
    private var created = 0

    /// The process-wide pool the importer uses, so an import of many receipts loads the model once.
    public static let shared = OCRPool()

    /// One worker per core, as many as half the machine's memory holds at the per-receipt budget
    /// (`OCRMemoryBudget.processBytes`): each worker holds one image being read, so a folder import
    /// peaks at about that budget times the workers (on a 2-core machine with 1 GB: one worker).
    public static var defaultWorkers: Int {
        let memory = Int(min(ProcessInfo.processInfo.physicalMemory / 2, UInt64(Int.max)))
        return max(1, min(ProcessInfo.processInfo.activeProcessorCount, memory / OCRMemoryBudget.processBytes))
    }

    public init(workers: Int = OCRPool.defaultWorkers, language: String = "eng", dataPath: String? = nil) {
        self.workers = max(1, workers)
        self.language = language
        self.dataPath = dataPath
    }

    /// How many engines exist (for tests: engines are reused, not created per image).
    public var engineCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return created
    }

    /// Runs `body` with an engine no other thread is using: an idle one, a new one while fewer
    /// than `workers` exist, or else the next one given back.
    public func withEngine<T>(_ body: (OCREngine) throws -> T) throws -> T {
        let engine = try checkout()
        defer { checkin(engine) }
        return try body(engine)
    }

    /// Applies `body` to every item on `workers` threads, each with its own engine; the results
    /// come back in the items' order. An engine that cannot be created fails every item left.
    public func map<T: Sendable, R: Sendable>(_ items: [T], _ body: @escaping @Sendable (OCREngine, T) throws -> R) -> [Result<R, Error>] {
        let results = ResultBox<R>(count: items.count)
        let threads = min(workers, items.count)
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            let thread = Thread { [self] in
                defer { done.leave() }
                do {
                    try withEngine { engine in
                        while let i = results.nextIndex() {
                            results.set(i, Result { try body(engine, items[i]) })
                        }
                    }
                } catch {
                    while let i = results.nextIndex() { results.set(i, .failure(error)) }
                }
            }
            thread.stackSize = 8 << 20   // Tesseract recurses deeply on some layouts
            thread.start()
        }
        done.wait()
        return results.values()
    }

    private func checkout() throws -> OCREngine {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let engine = idle.popLast() { return engine }
            if created < workers {
                created += 1
                do {
                    // Created under the lock: loading two models at once would only contend.
                    return try OCREngine(language: language, dataPath: dataPath)
                } catch {
                    created -= 1
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func checkin(_ engine: OCREngine) {
        condition.lock()
        idle.append(engine)
        condition.signal()
        condition.unlock()
    }

    /// The shared state of one `map`: the next item to take and the results so far.
    private final class ResultBox<R>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var slots: [Result<R, Error>?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func nextIndex() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        func set(_ i: Int, _ value: Result<R, Error>) {
            lock.lock()
            slots[i] = value
            lock.unlock()
        }

        func values() -> [Result<R, Error>] {
            lock.lock()
            defer { lock.unlock() }
            return slots.map { $0 ?? .failure(CancellationError()) }
        }
    }
}
