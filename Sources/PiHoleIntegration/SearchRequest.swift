import BridgeCore

/// `search`'s question: which entries and lists match `term` (a domain, or with `partial` a
/// piece of one), and whether they apply to `client`. Checked here, before any request: the
/// term goes into a URL, and FTL searches for whatever it is sent.
struct SearchRequest: Equatable, Sendable {
    /// Lowercased, as FTL compares; a domain's trailing root dot dropped.
    let term: String
    var partial = false
    /// An IP address, a MAC address or a host name.
    var client: String?

    /// A partial search is `LIKE '%term%'` over the whole gravity table: shorter pieces would
    /// match most of it.
    static let shortestPartial = 3
    static let usage = #"search takes a domain, or {"domain":"ads.example","partial":false,"client":"IP, MAC or host name"}"#

    static func parse(_ payload: CommandRequest.Payload) throws(CommandError) -> SearchRequest {
        switch payload {
        case .empty:
            throw CommandError("no domain given: \(usage)")
        case .text(let text):
            return SearchRequest(term: try domain(text))
        case .json(let json):
            guard case .object(let object) = json else { throw CommandError(usage) }
            if let unknown = object.keys.sorted().first(where: { !["domain", "partial", "client", "transaction"].contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
            }
            let partial: Bool
            switch object["partial"] {
            case nil, .null?: partial = false
            case .bool(let flag)?: partial = flag
            case let other?: throw CommandError("\"partial\" must be true or false, got \(other.encodedString().prefix(40))")
            }
            guard case .string(let text)? = object["domain"] else { throw CommandError("\"domain\" must be a string: \(usage)") }
            var request = SearchRequest(term: partial ? try piece(text) : try domain(text), partial: partial)
            switch object["client"] {
            case nil, .null?: break
            case .string(let client)? where isClient(client): request.client = client
            case let other?:
                throw CommandError("\"client\" must be an IP address, a MAC address or a host name (or null), got \(other.encodedString().prefix(60))")
            }
            return request
        }
    }

    /// A host name, by the rules the allow and deny commands use.
    private static func domain(_ text: String) throws(CommandError) -> String {
        try DomainChange.validate(text, kind: .exact)
        let lowered = text.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    /// A piece of a host name: letters, digits, `.`, `-` and `_` only (`%` and the like are
    /// wildcards to FTL's `LIKE`).
    private static func piece(_ text: String) throws(CommandError) -> String {
        guard (shortestPartial...253).contains(text.count),
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) })
        else {
            throw CommandError(
                "a partial search takes \(shortestPartial) to 253 letters, digits, '.', '-' or '_', got '\(text.prefix(60))'")
        }
        return text.lowercased()
    }

    static func isClient(_ text: String) -> Bool {
        RecentlyBlockedRequest.isClientAddress(text) || isMACAddress(text) || DomainChange.isHostName(text)
    }

    static func isMACAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
