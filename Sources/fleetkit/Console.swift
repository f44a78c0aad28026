import Foundation
import FleetKit

/// The one way the command line writes text for a person: every line of `import`, `nightly`,
/// `status`, `rejects`, `report`, `init`, `sample` and `formats`, and every error, goes through
/// `out` or `err`. Paths, notes, reject messages and raw text come from files a stranger may
/// have written, so each line is passed through `ControlText.escaped` before it reaches the
/// terminal: an ESC, a C1 CSI or a bidi override in a file is shown as `\x1b`, `\x9b` or
/// `\u{202e}` and can neither drive the terminal nor forge another output line (a newline
/// inside a value is shown as `\x0a`). JSON output (`--json`) is JSON-escaped by the encoder
/// and does not come here.
enum Console {
    /// One line on stdout (buffered, like `print`).
    static func out(_ line: String, terminator: String = "\n") {
        Swift.print(ControlText.escaped(line), terminator: terminator)
    }

    /// One line on stderr. Stdout is flushed first, so that both keep file order in one log.
    static func err(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((ControlText.escaped(line) + "\n").utf8))
    }

    /// The progress line on a terminal's stderr (`ProgressMeter`): a carriage return, the line
    /// (escaped like every other), and `pad` spaces to cover a longer previous line. No newline
    /// and no escape sequence: it is drawn over in place, on any terminal.
    static func redraw(_ line: String, pad: Int = 0) {
        FileHandle.standardError.write(Data(("\r" + ControlText.escaped(line) + String(repeating: " ", count: max(pad, 0))).utf8))
    }

    /// Clears a progress line of `width` characters, leaving the cursor at its start.
    static func clearLine(_ width: Int) {
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: width) + "\r").utf8))
    }

    /// JSON bytes for a program (the `import-one` reply to the nightly job): written as they
    /// are, since the encoder already escapes every control character; `newline` ends a
    /// protocol line.
    static func json(_ data: Data, newline: Bool = false) {
        fflush(nil)
        FileHandle.standardOutput.write(newline ? data + Data("\n".utf8) : data)
    }

    /// A report file's bytes for `report --out -` (`StdoutReport`): written as they are, since
    /// the report's own writer escaped every value (HTML, JSON) or they are a workbook's binary
    /// zip. Throws the write's error (a closed pipe) for the command to report.
    static func bytes(_ data: Data) throws {
        fflush(nil)
        try FileHandle.standardOutput.write(contentsOf: data)
    }
}
