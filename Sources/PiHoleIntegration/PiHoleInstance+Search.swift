import BridgeCore
import PiHoleAPI

extension PiHoleInstance {
    /// Matches of more than this many of each kind are counted, not listed.
    static let searchLimit = 100

    /// The search, the groups (names, and which are enabled) and, for a client, the configured
    /// clients: the client is the one configured under the same IP, MAC or host name (letter
    /// case aside), else in the Default group, as FTL treats a client it does not know.
    func search(_ request: SearchRequest) async throws(CommandError) -> SearchVerdict {
        do {
            let found = try await measured { try await $0.search(request.term, partial: request.partial, limit: Self.searchLimit) }
            let groups = try await measured { try await $0.groups() }
            var configured: PiHoleClientEntry?
            if let client = request.client {
                configured = try await measured { try await $0.clients() }.first { $0.client.lowercased() == client.lowercased() }
            }
            markAvailable()
            return SearchVerdict(
                found: found, groups: groups, clientGroupIDs: configured?.groups ?? [0],
                client: (request.client != nil, configured != nil), partial: request.partial)
        } catch {
            throw commandError(error)
        }
    }
}
