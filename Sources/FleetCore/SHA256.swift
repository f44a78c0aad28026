import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 (FIPS 180-4), streaming.
///
/// `source_file.sha256` makes re-importing the same bytes a no-op. Foundation on Linux has no
/// CryptoKit, and swift-crypto would add a minute to every clean build for one function, so the
/// few lines are here, checked against the FIPS test vectors and `sha256sum`.
public struct SHA256: Sendable {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var buffer = [UInt8]()
    private var length: UInt64 = 0

    public init() { buffer.reserveCapacity(64) }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public mutating func update(_ data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { raw in update(UnsafeRawBufferPointer(raw)) }
        }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[0..<take])
            offset = take
            if buffer.count == 64 {
                buffer.withUnsafeBytes { compress($0.baseAddress!) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
    }

    public mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail = buffer
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        tail.withUnsafeBytes { raw in
            var p = 0
            while p < raw.count { compress(raw.baseAddress! + p); p += 64 }
        }
        let words = [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7]
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for w in words {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(hex[Int((w >> UInt32(shift)) & 0xf)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                let b = block + i * 4
                w[i] = UInt32(b.load(as: UInt8.self)) << 24 | UInt32(b.load(fromByteOffset: 1, as: UInt8.self)) << 16
                    | UInt32(b.load(fromByteOffset: 2, as: UInt8.self)) << 8 | UInt32(b.load(fromByteOffset: 3, as: UInt8.self))
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = h
            SHA256.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
        }
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Hashes a file in 1 MiB reads, so memory stays flat for any size.
    ///
    /// Every import hashes the whole file (and a re-import is only that), so this is on the hot
    /// path: the portable code above runs at about 200 MB/s, a fifth of a
    /// 1 M-point GPX import. When the system's OpenSSL (`libcrypto.so.3`, on every Debian with
    /// curl or Swift's Foundation) can be loaded, its SHA-256 is used instead: same digest, about
    /// 1.5 GB/s with the CPU's SHA extensions. Without it, the portable code hashes.
    ///
    /// `proceed` is asked before each read; when it returns false the hash stops with
    /// `CancellationError` (an import that failed stops the hash running beside it).
    public static func hex(ofFile url: URL, proceed: () -> Bool = { true }) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading (check that it exists and that permissions allow reading)")
        }
        defer { try? handle.close() }
        if var system = SystemSHA256.make() {
            try read(handle, url, proceed) { system.update($0) }
            if let digest = system.finalize() { return digest }
            do { try handle.seek(toOffset: 0) } catch {
                throw FleetError.io(path: url.path, reason: "seek failed: \(error.localizedDescription)")
            }
        }
        var hasher = SHA256()
        try read(handle, url, proceed) { hasher.update($0) }
        return hasher.finalize()
    }

    private static func read(_ handle: FileHandle, _ url: URL, _ proceed: () -> Bool, _ body: (Data) -> Void) throws {
        while true {
            guard proceed() else { throw CancellationError() }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw FleetError.io(path: url.path, reason: "read failed: \(error.localizedDescription)")
            }
            if chunk.isEmpty { return }
            body(chunk)
        }
    }

    public static func hex(of data: some DataProtocol) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }
}

/// SHA-256 through the system's OpenSSL (`libcrypto.so.3`), loaded at run time with `dlopen`.
///
/// `SHA256.hex(ofFile:)` hashes every imported file; OpenSSL's EVP digest uses the CPU's SHA
/// extensions and is about 7x the portable Swift code. FleetKit does not link OpenSSL (no
/// package or build dependency): when the library or a symbol is missing, `make()` returns nil
/// and the caller hashes with the portable code, which gives the same digest.
struct SystemSHA256 {
    private typealias NewCtx = @convention(c) () -> OpaquePointer?
    private typealias FreeCtx = @convention(c) (OpaquePointer?) -> Void
    private typealias GetMD = @convention(c) () -> OpaquePointer?
    private typealias Init = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    private typealias Update = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    private typealias Final = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32

    private struct Library: @unchecked Sendable {
        let new: NewCtx, free: FreeCtx, sha256: GetMD, initialise: Init, update: Update, final: Final
    }

    /// Resolved once per process; nil when OpenSSL 3 is not installed.
    private static let library: Library? = {
        #if os(Linux)
        guard let handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as _: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let new = symbol("EVP_MD_CTX_new", as: NewCtx.self), let free = symbol("EVP_MD_CTX_free", as: FreeCtx.self),
              let sha256 = symbol("EVP_sha256", as: GetMD.self), let initialise = symbol("EVP_DigestInit_ex", as: Init.self),
              let update = symbol("EVP_DigestUpdate", as: Update.self), let final = symbol("EVP_DigestFinal_ex", as: Final.self)
        else { return nil }
        return Library(new: new, free: free, sha256: sha256, initialise: initialise, update: update, final: final)
        #else
        return nil
        #endif
    }()

    private let lib: Library
    private let context: OpaquePointer
    private var failed = false

    /// A fresh digest, or nil when the system library is unavailable or refuses to start one.
    static func make() -> SystemSHA256? {
        guard let lib = library, let context = lib.new() else { return nil }
        guard lib.initialise(context, lib.sha256(), nil) == 1 else { lib.free(context); return nil }
        return SystemSHA256(lib: lib, context: context)
    }

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { raw in
            if lib.update(context, raw.baseAddress, raw.count) != 1 { failed = true }
        }
    }

    /// The lowercase hex digest, or nil when OpenSSL reported a failure (the caller then hashes
    /// again with the portable code). Frees the context: call once.
    func finalize() -> String? {
        defer { lib.free(context) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard !failed, lib.final(context, &digest, &length) == 1, length == 32 else { return nil }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xf)]] }, as: UTF8.self)
    }
}
