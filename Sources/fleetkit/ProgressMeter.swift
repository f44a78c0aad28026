import Foundation
import FleetKit

/// The progress of a long run on stderr: files done of all, rows, rate, an estimate of the time
/// left, and the file in progress with how long it has taken so far (a big file must not look
/// like a hang). Never on stdout, which carries the result (`--json`, per-file lines).
///
/// WHY a thread of its own: a 2 GB GPX file is one `importFile` call; only a timer can show that
/// the run is alive meanwhile. On a terminal the line is redrawn in place every half second
/// (carriage return and spaces, no escape sequences, so nothing depends on the terminal or on
/// colour: FleetKit writes no colour, so NO_COLOR and dumb terminals need nothing more); in
/// `--verbose` mode into a pipe or log it is a plain line every 5 s.
final class ProgressMeter: @unchecked Sendable {
    enum Mode: Equatable { case off, terminal, lines }

    let mode: Mode
    let label: String
    /// What is counted (`files`), and whether rows are: a report run counts files written and
    /// has no rows to count.
    let noun: String
    let countsRows: Bool
    /// In `--verbose` mode, a line as each item ends (besides the one every 5 s): report steps
    /// are few and each may take long, while an import of thousands of files would flood a log.
    let linePerItem: Bool
    private let lock = NSLock()
    private let started = Date()
    private var filesDone = 0, filesFailed = 0, filesTotal: Int?, rows = 0
    private var current: (path: String, since: Date)?
    private var shown = 0          // characters of the line on screen (terminal mode)
    private var stopped = false

    init(mode: Mode, label: String, noun: String = "files", countsRows: Bool = true, linePerItem: Bool = false) {
        self.mode = mode
        self.label = label
        self.noun = noun
        self.countsRows = countsRows
        self.linePerItem = linePerItem
        guard mode != .off else { return }
        let interval: TimeInterval = mode == .terminal ? 0.5 : 5
        Thread.detachNewThread { [self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                let done = lock.withLock { () -> Bool in
                    if !stopped { paint() }
                    return stopped
                }
                if done { return }
            }
        }
    }

    /// A file starts (`total` files in all, when known).
    func started(_ path: String, total: Int?) {
        lock.withLock {
            current = (path, Date())
            filesTotal = total
        }
    }

    /// How many items the run has, when it is known before the first one starts.
    func expect(total: Int) {
        lock.withLock { filesTotal = total }
    }

    /// A file ended: committed (or found unchanged) with the rows it read (loaded, updated,
    /// unchanged and rejected), or failed and rolled back.
    func finished(_ outcome: FileOutcome) {
        finished(failed: outcome.status == .failed, rows: outcome.loaded + outcome.updated + outcome.unchanged + outcome.rejected)
    }

    /// An item ended (a file imported, a report written in one format), or failed.
    func finished(failed: Bool, rows: Int = 0) {
        lock.withLock {
            filesDone += 1
            if failed { filesFailed += 1 }
            self.rows += rows
            current = nil
            if linePerItem, mode == .lines, !stopped { paint() }
        }
    }

    /// What is known now, for the interruption message: files committed (imported or
    /// unchanged), failed, all files when known, rows, and the file in progress.
    var snapshot: (committed: Int, failed: Int, total: Int?, rows: Int, current: String?) {
        lock.withLock { (filesDone - filesFailed, filesFailed, filesTotal, rows, current?.path) }
    }

    /// Prints lines (per-file results) without tearing the progress line: it is cleared first
    /// and drawn again at the next tick.
    func above(_ body: () -> Void) {
        lock.withLock {
            clear()
            body()
            fflush(nil)
        }
    }

    /// Ends the meter: a terminal's line is cleared; a log (`--verbose`) gets the final count.
    func stop() {
        lock.withLock {
            if !stopped, mode == .lines, !(linePerItem && filesDone == filesTotal) { paint() }
            stopped = true
            clear()
        }
    }

    /// The progress line, e.g. `import: 12/40 files, 34,567 rows, 3.1 files/s, about 9 s left; now /in/big.gpx (4 s)`.
    /// Longer than `width`, the path in progress loses its beginning (`…/gpx/big.gpx`): the file
    /// name is what a person recognises.
    func line(now: Date = Date(), width: Int = .max) -> String {
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        var text = "\(label): \(filesDone)\(filesTotal.map { "/\($0)" } ?? "") \(noun)" + (countsRows ? ", \(Self.grouped(rows)) rows" : "")
        if filesDone > 0 {
            let perSecond = Double(filesDone) / elapsed
            text += ", \(Self.rate(perSecond)) \(noun)/s"
            if let total = filesTotal, total > filesDone { text += ", about \(Self.duration(Double(total - filesDone) / perSecond)) left" }
        }
        guard let current else { return text }
        let head = text + "; now ", tail = " (\(Self.duration(now.timeIntervalSince(current.since))))"
        let room = width - head.count - tail.count
        let path = current.path.count <= room ? current.path : "…" + String(current.path.suffix(max(room - 1, 0)))
        return head + path + tail
    }

    private func paint() {
        let width = Self.terminalWidth() - 1
        let text = ControlText.escaped(line(width: mode == .terminal ? width : .max))
        switch mode {
        case .off: return
        case .lines:
            Console.err(text)
        case .terminal:
            let fitted = text.count > width ? String(text.prefix(max(width - 1, 0))) + "…" : text
            Console.redraw(fitted, pad: shown - fitted.count)
            shown = fitted.count
        }
    }

    private func clear() {
        guard mode == .terminal, shown > 0 else { return }
        Console.clearLine(shown)
        shown = 0
    }

    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 { return Int(size.ws_col) }
        return 80
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func rate(_ r: Double) -> String { r >= 10 ? String(Int(r.rounded())) : String(format: "%.1f", r) }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return String(format: "%d:%02d", s / 60, s % 60) }
        return String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }
}
