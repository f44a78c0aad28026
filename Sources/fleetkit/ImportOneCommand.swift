import ArgumentParser
import Foundation
import FleetKit
import FleetNightly

/// `fleetkit import-one --request JSON`: the child process of `fleetkit nightly`, one per file.
///
/// Hidden from help: only the nightly job runs it (ChildProcessImportRunner). It imports one
/// file in one transaction and prints a `FileImportReply` as JSON on stdout. If the import
/// crashes in a C library, only this process dies; its transaction was never committed, and
/// the nightly job quarantines the file and goes on. Exit 0 with an outcome (even a failed
/// file), 2 when the warehouse cannot be written (the reply says why), 64 for a bad request.
struct ImportOneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-one",
        abstract: "Import one file for the nightly job and report its outcome as JSON (internal).",
        shouldDisplay: false)

    @Option(help: "The FileImportRequest, as JSON.")
    var request: String

    func run() throws {
        let request: FileImportRequest
        do { request = try JSONDecoder().decode(FileImportRequest.self, from: Data(self.request.utf8)) } catch {
            printError("error: import-one: the request is not a FileImportRequest: \(error)")
            throw ExitCode.validationFailure
        }
        // If the nightly job dies (SIGKILL, OOM), nobody would read the reply or enforce the time
        // limit: the child stops too, its transaction rolls back, and the next run imports the file.
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            _exit(Exit.couldNotRun.rawValue)
        }
        let reply: FileImportReply
        do {
            reply = try request.run(in: ImportSession(warehouse: try Warehouse(path: request.warehouse)))
        } catch {
            reply = FileImportReply(stopped: String(describing: error))
        }
        FileHandle.standardOutput.write(try JSONEncoder().encode(reply))
        if reply.stopped != nil { throw Exit.couldNotRun }
    }
}
