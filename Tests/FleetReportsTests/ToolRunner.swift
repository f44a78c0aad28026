import Foundation
import FleetTestSupport

/// Runs a helper program (Python's zipfile, openpyxl) and returns its exit status and output.
enum ToolRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let r = try Tool.run(executable, arguments)
        return Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    /// The XML parts of an XLSX (sheets, shared strings, charts, workbook), by zip entry name.
    /// Zip bytes carry timestamps, so tests compare these texts, not the file.
    static func xlsxParts(_ path: String) throws -> [String: String] {
        let script = """
        import json, sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        names = [n for n in z.namelist() if n.endswith('.xml') or n.endswith('.rels')]
        print(json.dumps({n: z.read(n).decode('utf-8') for n in names}))
        """
        let r = try run("/usr/bin/env", ["python3", "-c", script, path])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: String] else {
            throw NSError(domain: "xlsxParts", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "cannot read \(path) as a zip: \(r.stderr)"])
        }
        return json
    }

    /// One element per line, so a golden diff points at the cell that changed.
    static func readableXML(_ xml: String) -> String {
        xml.replacingOccurrences(of: "><", with: ">\n<").trimmingCharacters(in: .newlines) + "\n"
    }
}
