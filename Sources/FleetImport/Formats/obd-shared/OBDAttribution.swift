import Foundation
import FleetCore
import FleetWarehouse

/// Which asset an OBD log belongs to (docs/FORMATS.md, "Identity"). A VIN read from the vehicle (mode 09 PID 02)
/// is the strongest evidence and resolves or creates the asset; with `--asset` or a unit folder
/// as well, the one ref links the two (a VIN that belongs to another unit is an identity
/// conflict and fails the file). Without a VIN, `--asset` or the unit folder must name it; a log
/// nobody can place is refused as a whole rather than booked on a guessed vehicle.
enum OBDAttribution {
    /// `vinProblem`: why a VIN answer the transcript holds could not be read, so the error does
    /// not claim there was none.
    static func asset(_ input: InputFile, vin: String?, vinProblem: String? = nil, format: String, into sink: inout some RecordSink) throws -> Int64 {
        var ref = input.asset ?? AssetRef()
        if let vin {
            ref.vin = vin
        }
        guard ref.isResolvable else {
            let folder = input.url.deletingLastPathComponent().lastPathComponent
            throw FleetError.unattributed(file: input.path, hint: """
                A \(format) log does not say which vehicle it came from\(format == "elm327" ? (vinProblem.map { " (its mode 09 VIN answer could not be read, \($0))" } ?? " (no mode 09 VIN answer in the transcript)") : ""), \
                and its folder '\(folder)' is not a known unit number or VIN. Use --asset UNIT, or put the file in a folder named after \
                a known unit (inbox/obd/T-12/log.csv; import the assets master data first).
                """)
        }
        do {
            return try sink.asset(ref)
        } catch let e as RowError {
            throw FleetError.unattributed(file: input.path, hint: "The vehicle's VIN \(vin ?? "-") and \(input.asset?.description ?? "the folder") disagree: \(e.issue(at: "file", raw: "").message). Fix the master data or import with the right --asset.")
        }
    }
}
