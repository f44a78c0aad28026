import ArgumentParser
import Foundation
import FleetKit
import FleetNightly

/// `fleetkit import-one`: the import worker of `fleetkit nightly` (ChildProcessImportRunner).
///
/// Hidden from help: only the nightly job runs it. It reads one `FileImportRequest` per line
/// on stdin, imports that file in one transaction, and answers one `FileImportReply` per line on
/// stdout, until stdin ends. If an import crashes in a C library, only this process dies; the
/// file's transaction was never committed, the job quarantines that file and starts a new
/// worker for the next one. One worker serves many files because starting fleetkit and opening
/// the warehouse costs about 0.1 s (docs/OPERATIONS.md), more than a small file's import.
/// `--request JSON` imports just that one file (exit 2 when the warehouse cannot be written).
/// A request with `detect_only` only reads the file's first bytes and answers its format: the
/// job orders files by format, and even that read is input that must not crash the job.
struct ImportOneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-one",
        abstract: "Import files for the nightly job, one JSON request per line, and answer each with its outcome (internal).",
        shouldDisplay: false)

    @Option(help: "One FileImportRequest as JSON, instead of reading them from stdin.")
    var request: String?

    func run() throws {
        // If the nightly job dies (SIGKILL, OOM), nobody would read the reply or enforce the time
        // limit: the worker stops too, its transaction rolls back, and the next run imports the file.
        // Ctrl-C at a terminal reaches the whole process group, and systemd's stop the whole
        // unit: only the nightly job acts on it (Interruption), stopping this worker itself, so
        // that the worker's death is never mistaken for a crash of the file it was reading.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            _exit(Exit.couldNotRun.rawValue)
        }
        var sessions: [String: ImportSession] = [:]
        func answer(_ line: String) throws -> FileImportReply {
            let request: FileImportRequest
            do { request = try JSONDecoder().decode(FileImportRequest.self, from: Data(line.utf8)) } catch {
                Console.err("error: import-one: the request is not a FileImportRequest: \(error)")
                throw ExitCode.validationFailure
            }
            // A format question needs no warehouse.
            if request.detectOnly == true { return request.detect() }
            do {
                let session = try sessions[request.warehouse] ?? ImportSession(warehouse: try Warehouse(path: request.warehouse))
                sessions[request.warehouse] = session
                return try request.run(in: session)
            } catch {
                return FileImportReply(stopped: String(describing: error))
            }
        }
        if let request {
            let reply = try answer(request)
            Console.json(try JSONEncoder().encode(reply))
            if reply.stopped != nil { throw Exit.couldNotRun }
            return
        }
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            // JSONEncoder escapes control characters, so a reply is always exactly one line.
            Console.json(try JSONEncoder().encode(try answer(line)), newline: true)
        }
    }
}
