import Foundation
import GRDB
import FleetCore

/// What the rows of one file have claimed so far: the natural keys `Row.unique` has seen, the
/// first row of each DVIR. Kept in a dictionary up to `memoryLimit` entries, then moved to a
/// private temporary SQLite file, so that a file of any length
/// imports in bounded memory. Without it a 48 MB DVIR export (245,000 DVIRs) held 224 MB of
/// dictionaries, and the 150 MB bound for a 1 GB input could not hold.
///
/// The file is SQLite's anonymous temporary database (path ""): SQLite creates it 0600 in
/// SQLITE_TMPDIR/TMPDIR and unlinks it right after opening, so no other user can read the keys
/// (card transactions, DVIRs) and a killed import leaves nothing behind. It used to be a named
/// `fleetkit-keys-*.sqlite` that followed the umask and survived a SIGKILL.
///
/// A class: the row loop and each `Row` share one ledger; a dictionary copied into every row
/// was also copied whole on the next insert, which made large files quadratic.
final class KeyLedger {
    struct Entry: Equatable {
        var line: Int
        /// What else the caller needs back (e.g. a DVIR's columns, `KeyLedger.pack`).
        var payload: String
    }

    let memoryLimit: Int
    private var memory: [String: Entry] = [:]
    private var spill: DatabaseQueue?
    /// Once on disk, most lookups are for keys never seen (a new DVIR, a new transaction): a
    /// Bloom filter of fixed size (4 MB, 2^25 bits, 3 probes; about 1 % false positives at 5
    /// million keys) answers those without a query, and keeps memory bounded.
    private var bloom: [UInt64] = []

    /// 50,000 entries: about 15 MB for DVIRs, the largest payload. Tests lower it to make the
    /// disk path run on small fixtures.
    nonisolated(unsafe) static var defaultMemoryLimit = 50_000

    init(memoryLimit: Int = KeyLedger.defaultMemoryLimit) {
        self.memoryLimit = memoryLimit
    }

    /// Whether the ledger has moved to disk (for tests).
    var spilled: Bool { spill != nil }

    func entry(_ key: String) throws -> Entry? {
        if let e = memory[key] { return e }
        guard let queue = spill, mightContain(key) else { return nil }
        return try queue.inDatabase { db in
            try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT line, payload FROM ledger WHERE key = ?"), arguments: [key])
                .map { Entry(line: $0[0], payload: $0[1]) }
        }
    }

    func set(_ key: String, _ entry: Entry) throws {
        memory[key] = entry
        // In memory up to the limit; once on disk, the dictionary is a write buffer flushed in
        // one transaction every `flushSize` entries.
        if spill == nil ? memory.count > memoryLimit : memory.count >= Self.flushSize { try flush() }
    }

    static let flushSize = 4096

    private func flush() throws {
        do {
            let queue = try spill ?? {
                var config = Configuration()
                config.prepareDatabase { db in
                    // Scratch data for one import: no journal, no fsync, a small page cache.
                    try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8000")
                }
                // "" = an anonymous temporary file, unlinked by SQLite as soon as it is open.
                let queue = try DatabaseQueue(path: "", configuration: config)
                try queue.inDatabase { db in
                    try db.execute(sql: "CREATE TABLE ledger(key TEXT PRIMARY KEY, line INTEGER NOT NULL, payload TEXT NOT NULL) WITHOUT ROWID")
                }
                spill = queue
                return queue
            }()
            try queue.inTransaction { db in
                let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO ledger(key, line, payload) VALUES (?, ?, ?)")
                for (key, e) in memory { try insert.execute(arguments: [key, e.line, e.payload]) }
                return .commit
            }
            if bloom.isEmpty { bloom = Array(repeating: 0, count: Self.bloomWords) }
            for key in memory.keys { remember(key) }
            memory = [:]
        } catch {
            throw FleetError.io(path: "(temporary file in TMPDIR)", reason: "cannot keep the keys of a large file on disk (\(error)); check that the temporary folder (TMPDIR) is writable and has space")
        }
    }

    static let bloomWords = 1 << 19   // 2^25 bits

    private func probes(_ key: String) -> (UInt64, UInt64) {
        var h = Hasher()
        h.combine(key)
        let v = UInt64(bitPattern: Int64(h.finalize()))
        return (v & 0xFFFF_FFFF, (v >> 32) | 1)
    }

    private func remember(_ key: String) {
        let (a, b) = probes(key)
        let bits = UInt64(Self.bloomWords * 64)
        for i in 0..<3 as Range<UInt64> {
            let bit = (a &+ i &* b) % bits
            bloom[Int(bit >> 6)] |= 1 << (bit & 63)
        }
    }

    private func mightContain(_ key: String) -> Bool {
        let (a, b) = probes(key)
        let bits = UInt64(Self.bloomWords * 64)
        for i in 0..<3 as Range<UInt64> {
            let bit = (a &+ i &* b) % bits
            if bloom[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }

    /// Several strings as one payload, each length-prefixed so that no text can be mistaken for
    /// a separator.
    static func pack(_ parts: [String]) -> String {
        parts.map { "\($0.utf8.count):\($0)" }.joined()
    }

    static func unpack(_ payload: String) -> [String] {
        var out: [String] = []
        var rest = Substring(payload)
        while let colon = rest.firstIndex(of: ":"), let n = Int(rest[..<colon]) {
            let start = rest.index(after: colon)
            let utf8 = rest[start...].utf8
            let end = utf8.index(utf8.startIndex, offsetBy: n)
            out.append(String(rest[start..<end]))
            rest = rest[end...]
        }
        return out
    }
}
