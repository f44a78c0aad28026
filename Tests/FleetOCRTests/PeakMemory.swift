import Foundation

/// Peak resident memory, measured by the kernel (VmHWM), of this process and of a child process
/// running one test of this same test binary.
///
/// Why a child: the test process carries whatever earlier tests left in malloc's arenas (165 MB
/// after the importer tests, measured), so its absolute peak says little about one import; a
/// child that runs a single test starts like `fleetkit import` does (XCTest in place of the CLI),
/// and its peak is the whole process's, decoders and Tesseract included. The child reports its
/// own VmHWM: `wait4`'s `ru_maxrss` would not do, as Linux carries the parent's high-water mark
/// into a child spawned with vfork (the exec records the shared memory's peak as the child's).
enum PeakMemory {
    struct Child {
        /// Whether the child test ran and passed (XCTest exits 0).
        var passed: Bool
        /// What the child wrote to the file named by `FLEETKIT_CHILD_OUT`.
        var output: String
    }

    /// Runs `test` ("Target.Class/testMethod") of this test binary in a child process with
    /// `environment` added (and `FLEETKIT_CHILD_OUT`); its own output goes to /dev/null.
    static func runChild(test: String, environment: [String: String]) throws -> Child {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["FLEETKIT_CHILD_OUT"] = out
        let args: [UnsafeMutablePointer<CChar>?] = [strdup(binary), strdup(test), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { args.forEach { free($0) }; envp.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let rc = posix_spawn(&pid, binary, &actions, nil, args, envp)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS == 0: no signal, and the test passed.
        let passed = status & 0x7F == 0 && (status >> 8) & 0xFF == 0
        let output = FileManager.default.contents(atPath: out).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Child(passed: passed, output: output)
    }

    /// Resets this process's VmHWM to its current resident set (Linux ≥ 4.0: `5 > clear_refs`).
    static func reset() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }

    static var peak: Int { status("VmHWM:") }
    static var current: Int { status("VmRSS:") }

    static func status(_ key: String) -> Int {
        // procfs files have no size, so they are read to their end rather than by their length.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return 0 }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
        // "VmHWM:\t  123456 kB"
        return (Int(line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0) * 1024
    }
}
