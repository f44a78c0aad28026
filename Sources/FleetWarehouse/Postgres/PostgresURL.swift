import FleetCore

/// A PostgreSQL connection URL (`postgresql://user[:password]@host[:port]/dbname[?…]`), as libpq
/// reads it. FleetKit never parses out the password: `masked` is the only form that is shown.
public struct PostgresURL: Sendable, Equatable {
    /// The URL as given; handed to libpq only, never printed.
    let text: String

    /// True for text that names a PostgreSQL server rather than a warehouse file.
    public static func isPostgres(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    public init?(_ text: String) {
        guard PostgresURL.isPostgres(text) else { return nil }
        self.text = text
    }

    /// The URL with any password replaced by `***`: in the authority (`user:secret@host`) and in
    /// a `password=` query parameter. What error messages and output show.
    public var masked: String { PostgresURL.mask(text) }

    public static func mask(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        var head = String(text[..<scheme.upperBound])
        var rest = Substring(text[scheme.upperBound...])
        // The authority ends at the first '/' or '?'; its userinfo at its last '@'.
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            if let colon = userinfo.firstIndex(of: ":") {
                head += userinfo[..<colon] + ":***"
            } else {
                head += userinfo
            }
            head += authority[at...]
        } else {
            head += authority
        }
        rest = rest[authorityEnd...]
        guard let q = rest.firstIndex(of: "?") else { return head + rest }
        let path = rest[..<q]
        let query = rest[rest.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            pair.lowercased().hasPrefix("password=") ? "password=***" : String(pair)
        }
        return head + path + "?" + query.joined(separator: "&")
    }
}
