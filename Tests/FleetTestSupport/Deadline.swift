import Foundation
import XCTest

/// Runs `body` on its own thread and waits at most `seconds` for it: a test of something that
/// used to hang (a FIFO in the inbox, a symbolic link loop) fails with a message instead of
/// hanging the whole suite. A body that overruns is left blocked on its thread.
public func withDeadline<T>(_ seconds: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                            _ body: @escaping () throws -> T) throws -> T {
    let box = DeadlineBox<T>(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = Result { try box.body() }
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    guard done.wait(timeout: .now() + seconds) == .success, let result = box.result else {
        XCTFail("\(what) did not finish within \(Int(seconds)) s: it hangs", file: file, line: line)
        throw DeadlineExceeded(what: what)
    }
    return try result.get()
}

/// The body and its result, handed to the thread and back; the semaphore orders the accesses.
final class DeadlineBox<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, any Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}

public struct DeadlineExceeded: Error { public var what: String }

/// Creates a FIFO; `unblock` opens its write end once so a reader stuck in `open` goes on.
public enum FIFO {
    public static func make(_ url: URL) throws {
        guard mkfifo(url.path, 0o600) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
    }

    public static func unblock(_ url: URL) {
        let fd = open(url.path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }
}

/// A file whose name is the given bytes (not necessarily UTF-8) inside `folder`.
public func createRawNamedFile(named bytes: [UInt8], in folder: URL, contents: String) throws {
    let path = Array(folder.path.utf8) + [0x2F] + bytes + [0]
    let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) } }
    guard fd >= 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
    defer { close(fd) }
    let data = Array(contents.utf8)
    _ = data.withUnsafeBytes { write(fd, $0.baseAddress!, data.count) }
}
