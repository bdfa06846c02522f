#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A configured client of the gravity database: an IP, MAC, host name, CIDR range or
/// interface, with the ids of its groups.
public struct SimulatedClient: Sendable, Equatable {
    public let id: Int
    public let client: String
    public var comment: String?
    public var groups: [Int]
    public let dateAdded: Date
    public var dateModified: Date
}

/// The clients table, plus what tests check: the writes it took (PUT and POST).
struct SimulatedClients: Sendable {
    private(set) var all: [SimulatedClient] = []
    private var nextID = 1
    var writes = 0

    func named(_ client: String) -> SimulatedClient? { all.first { $0.client == client } }

    /// Adds a client; `false` when it exists (FTL: `UNIQUE constraint failed`).
    @discardableResult
    mutating func add(_ client: String, comment: String?, groups: [Int], now: Date) -> Bool {
        guard named(client) == nil else { return false }
        all.append(SimulatedClient(id: nextID, client: client, comment: comment, groups: groups, dateAdded: now, dateModified: now))
        nextID += 1
        return true
    }

    /// Replaces the client's comment and groups, adding it when unknown (FTL's PUT is an upsert).
    mutating func replace(_ client: String, comment: String?, groups: [Int], now: Date) {
        guard let index = all.firstIndex(where: { $0.client == client }) else {
            add(client, comment: comment, groups: groups, now: now)
            return
        }
        all[index].comment = comment
        all[index].groups = groups
        all[index].dateModified = now
    }

    @discardableResult
    mutating func remove(_ client: String) -> Bool {
        guard let index = all.firstIndex(where: { $0.client == client }) else { return false }
        all.remove(at: index)
        return true
    }
}
