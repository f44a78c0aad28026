import Foundation
import FleetCore

extension ProfileNativeRows {
    /// Rewrites a record's mapped cells into the native shape, in place. A cell the profile
    /// cannot read (a date off its pattern, a number with the wrong marks) is a `RowError`
    /// naming the file's column, so the row is rejected at that cell with its raw text.
    static func rewriter(_ profile: Profile, header: CSVHeader, values: ProfileValues) -> (inout CSVRecord) throws -> Void {
        let plan: [(index: Int, column: Profile.Column, fromSI: Double?)] = profile.columns.compactMap { c in
            let native = column(for: c)
            guard let i = header.index(native.name) else { return nil }
            return (i, c, native.fromSI)
        }
        return { record in
            for (i, c, fromSI) in plan where i < record.fields.count {
                let v = record.fields[i].trimmingCharacters(in: .whitespaces)
                guard !v.isEmpty else { continue }
                record.fields[i] = try shape(v, column: c, fromSI: fromSI, values: values)
            }
        }
    }

    private static func shape(_ v: String, column c: Profile.Column, fromSI: Double?, values: ProfileValues) throws -> String {
        switch c.kind {
        case .datetime:
            return Timestamp.iso(try values.instant(text: v, column: c.header))
        case .date:
            return try values.day(text: v, column: c.header).description
        case .money, .number, .distance, .duration, .volume:
            let d = try values.decimal(text: v, column: c.header)
            guard let fromSI else { return d.description }
            let si = d.double * (c.unit?.factor ?? 1)
            return String(format: "%.6f", si * fromSI)
        default:
            return v
        }
    }
}
