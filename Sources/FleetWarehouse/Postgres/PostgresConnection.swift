import CLibPQ
import FleetCore
import Foundation

/// One libpq connection to a PostgreSQL server (docs/ARCHITECTURE.md "Engine boundary").
///
/// The URL goes to libpq as it is, so libpq alone reads the password: from the URL, from
/// `PGPASSFILE` (or `~/.pgpass`), or from `PGPASSWORD`. Every error names the server by
/// `PostgresURL.masked`, never the URL as given: a password must not reach a log.
public final class PostgresConnection {
    public let url: PostgresURL
    private let conn: OpaquePointer

    public init(_ url: PostgresURL) throws {
        self.url = url
        guard let c = PQconnectdb(url.text) else {
            throw FleetError.warehouse(path: url.masked, reason: "libpq could not allocate a connection", hint: "Retry; the machine may be out of memory.")
        }
        // From here on deinit finishes the connection, on every path (a throwing init of a
        // class whose properties are all set still runs deinit).
        conn = c
        guard PQstatus(c) == CONNECTION_OK else {
            let reason = PostgresConnection.message(c)
            throw FleetError.warehouse(path: url.masked, reason: "cannot connect: \(reason)",
                                       hint: "Check the server, port, user and database in the URL; a password comes from the URL, PGPASSFILE or PGPASSWORD.")
        }
        // Times travel as UTC text and come back as UTC; floats print shortest-exact (PostgreSQL 12+).
        try execute("SET TIME ZONE 'UTC'; SET extra_float_digits = 1; SET client_min_messages = warning")
    }

    deinit { PQfinish(conn) }

    /// Runs statements that return no rows (several, separated by `;`, are allowed).
    public func execute(_ sql: String) throws {
        let r = PQexec(conn, sql)
        defer { PQclear(r) }
        let status = PQresultStatus(r)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(doing: sql) }
    }

    /// Runs a query with text parameters and returns every row as text (nil for NULL).
    public func rows(_ sql: String, _ parameters: [String] = []) throws -> [[String?]] {
        let cParams = parameters.map { strdup($0) }
        defer { cParams.forEach { free($0) } }
        let r = cParams.withUnsafeBufferPointer { buf -> OpaquePointer? in
            buf.withMemoryRebound(to: UnsafePointer<CChar>?.self) { p in
                PQexecParams(conn, sql, Int32(parameters.count), nil, p.baseAddress, nil, nil, 0)
            }
        }
        defer { PQclear(r) }
        guard PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK else { throw failure(doing: sql) }
        let n = PQntuples(r), m = PQnfields(r)
        var out: [[String?]] = []
        out.reserveCapacity(Int(n))
        for i in 0..<n {
            out.append((0..<m).map { j in PQgetisnull(r, i, j) == 1 ? nil : String(cString: PQgetvalue(r, i, j)) })
        }
        return out
    }

    /// Runs a query with text parameters (nil for NULL) and hands each row to `body` as it
    /// arrives (libpq's single-row mode), with the result's column type OIDs: a large result is
    /// never held whole. An error thrown by `body` ends the walk; the rest of the result is
    /// read and dropped, so the connection stays usable.
    public func forEachRow(_ sql: String, _ parameters: [String?], _ body: (_ row: [String?], _ types: [UInt32]) throws -> Void) throws {
        let cParams: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { cParams.forEach { free($0) } }
        let sent = cParams.withUnsafeBufferPointer { buf -> Int32 in
            buf.withMemoryRebound(to: UnsafePointer<CChar>?.self) { p in
                PQsendQueryParams(conn, sql, Int32(parameters.count), nil, p.baseAddress, nil, nil, 0)
            }
        }
        guard sent == 1 else { throw failure(doing: sql) }
        _ = PQsetSingleRowMode(conn)
        var thrown: Error?
        var serverError: Error?
        var types: [UInt32]?
        var row: [String?] = []
        while let r = PQgetResult(conn) {
            let status = PQresultStatus(r)
            if status == PGRES_SINGLE_TUPLE {
                if thrown == nil {
                    let m = PQnfields(r)
                    if types == nil { types = (0..<m).map { PQftype(r, $0) } }
                    row.removeAll(keepingCapacity: true)
                    for j in 0..<m { row.append(PQgetisnull(r, 0, j) == 1 ? nil : String(cString: PQgetvalue(r, 0, j))) }
                    do { try body(row, types!) } catch { thrown = error }
                }
            } else if status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK, serverError == nil {
                serverError = failure(doing: sql)
            }
            PQclear(r)
        }
        if let thrown { throw thrown }
        if let serverError { throw serverError }
    }

    /// `COPY … FROM STDIN`: `produce` is called until it returns nil, each chunk sent as it comes.
    /// Returns the row count the server reports.
    @discardableResult
    public func copyIn(_ sql: String, produce: () throws -> [UInt8]?) throws -> Int {
        let start = PQexec(conn, sql)
        let startStatus = PQresultStatus(start)
        PQclear(start)
        guard startStatus == PGRES_COPY_IN else { throw failure(doing: sql) }
        var thrown: Error?
        do {
            while let chunk = try produce() {
                if chunk.isEmpty { continue }
                let sent = chunk.withUnsafeBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { PQputCopyData(conn, $0.baseAddress, Int32($0.count)) }
                }
                guard sent == 1 else { throw failure(doing: sql) }
            }
        } catch {
            thrown = error
        }
        // An error on our side ends the COPY with a failure, so the server keeps none of it.
        let ended = thrown == nil ? PQputCopyEnd(conn, nil) : PQputCopyEnd(conn, "FleetKit stopped the copy")
        var serverError: Error?
        var count = 0
        while let r = PQgetResult(conn) {
            if PQresultStatus(r) == PGRES_COMMAND_OK {
                count = Int(String(cString: PQcmdTuples(r))) ?? 0
            } else if serverError == nil {
                serverError = failure(doing: sql)
            }
            PQclear(r)
        }
        if let thrown { throw thrown }
        if let serverError { throw serverError }
        guard ended == 1 else { throw failure(doing: sql) }
        return count
    }

    /// `COPY … TO STDOUT`: hands every chunk (whole rows, in libpq's text format) to `consume`.
    public func copyOut(_ sql: String, consume: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let start = PQexec(conn, sql)
        let startStatus = PQresultStatus(start)
        PQclear(start)
        guard startStatus == PGRES_COPY_OUT else { throw failure(doing: sql) }
        var thrown: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let n = PQgetCopyData(conn, &buffer, 0)
            if n > 0, let buffer {
                if thrown == nil {
                    do {
                        try buffer.withMemoryRebound(to: UInt8.self, capacity: Int(n)) { try consume(UnsafeBufferPointer(start: $0, count: Int(n))) }
                    } catch { thrown = error }
                }
                PQfreemem(buffer)
            } else {
                break
            }
        }
        var serverError: Error?
        while let r = PQgetResult(conn) {
            if PQresultStatus(r) != PGRES_COMMAND_OK, serverError == nil { serverError = failure(doing: sql) }
            PQclear(r)
        }
        if let thrown { throw thrown }
        if let serverError { throw serverError }
    }

    private func failure(doing sql: String) -> FleetError {
        let statement = sql.count > 120 ? String(sql.prefix(120)) + "…" : sql
        return FleetError.warehouse(path: url.masked, reason: PostgresConnection.message(conn) + " (in: \(statement))",
                                    hint: "Nothing was kept: the statement's transaction was rolled back.")
    }

    private static func message(_ c: OpaquePointer) -> String {
        guard let m = PQerrorMessage(c) else { return "unknown error" }
        return String(cString: m).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
