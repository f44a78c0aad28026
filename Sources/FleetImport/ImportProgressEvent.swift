import Foundation

/// What `ImportSession.run` tells a listener while it works: a file is about to be read, or a
/// file is done. WHY events and not a printed line: the library never prints; the command line
/// turns these into a progress line on a terminal and per-file lines as files finish.
public enum ImportProgressEvent: Sendable {
    /// File `index` (0-based) of `count` starts; `runID` is the run it belongs to (nil in a dry run).
    case started(URL, index: Int, of: Int, runID: Int64?)
    /// File `index` of `count` ended: committed, found unchanged, or failed and rolled back.
    case finished(FileOutcome, index: Int, of: Int)
}
