import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every retained Pi-hole state message, from what was last seen: per Pi-hole its state,
/// availability, statistics, groups, updates and diagnostics; over all of them the aggregate
/// state, statistics and groups.
struct PiHolePublication {
    let snapshots: [(id: String, snapshot: PiHoleSnapshot)]
    let groups: PiHoleGroupRegistry
    let clients: PiHoleClientRegistry

    var messages: [(topic: String, message: StateMessage)] {
        var messages: [(topic: String, message: StateMessage)] = []
        for (id, snapshot) in snapshots {
            messages += Self.blockingMessages(id, snapshot)
            let details = snapshot.details
            if let stats = details.statsPayload { messages.append((PiHoleTopics.stats(id), .json(stats))) }
            if details.groups != nil { messages.append((PiHoleTopics.groups(id), .json(groups.payload(of: id)))) }
            if details.clients != nil { messages.append((PiHoleTopics.clients(id), .json(clients.payload(of: id)))) }
            if let updates = details.updatesPayload { messages.append((PiHoleTopics.updates(id), .json(updates))) }
            if let diagnostics = details.diagnosticsPayload { messages.append((PiHoleTopics.diagnostics(id), .json(diagnostics))) }
        }
        messages += Self.aggregateBlockingMessages(snapshots)
        if let stats = aggregateStats { messages.append((PiHoleTopics.aggregateStats, .json(stats))) }
        if snapshots.contains(where: { $0.snapshot.details.groups != nil }) {
            messages.append((PiHoleTopics.aggregateGroups, .json(groups.aggregatePayload)))
        }
        if snapshots.contains(where: { $0.snapshot.details.clients != nil }) {
            messages.append((PiHoleTopics.aggregateClients, .json(clients.aggregatePayload)))
        }
        return messages
    }

    /// What a command on the blocking of the Pi-holes `ids` (a pause, a resume, a refresh, a
    /// domain) can have changed: their state and availability, and the aggregate's. Their
    /// statistics, groups, updates and diagnostics follow the slower reads, which publish all.
    static func blockingMessages(
        of ids: Set<String>, in snapshots: [(id: String, snapshot: PiHoleSnapshot)]
    ) -> [(topic: String, message: StateMessage)] {
        snapshots.filter { ids.contains($0.id) }.flatMap { blockingMessages($0.id, $0.snapshot) } + aggregateBlockingMessages(snapshots)
    }

    private static func blockingMessages(_ id: String, _ snapshot: PiHoleSnapshot) -> [(topic: String, message: StateMessage)] {
        [(PiHoleTopics.instance(id), .json(snapshot.payload(id: id))), (PiHoleTopics.instanceAvailability(id), .availability(snapshot.available))]
    }

    private static func aggregateBlockingMessages(
        _ snapshots: [(id: String, snapshot: PiHoleSnapshot)]
    ) -> [(topic: String, message: StateMessage)] {
        [
            (PiHoleTopics.aggregate, .json(PiHoleAggregate(snapshots).payload)),
            (PiHoleTopics.availability, .availability(snapshots.contains { $0.snapshot.available })),
        ]
    }

    /// Queries and blocked queries over every Pi-hole whose statistics were read: what a household
    /// asks ("how much was blocked today"); the rest is per Pi-hole.
    private var aggregateStats: JSONValue? {
        let read = snapshots.compactMap { entry in entry.snapshot.details.stats.map { (entry.id, $0) } }
        guard !read.isEmpty else { return nil }
        let queries = read.map(\.1.queriesTotal).reduce(0, +)
        let blocked = read.map(\.1.queriesBlocked).reduce(0, +)
        return [
            "queries": .number(Double(queries)),
            "blocked": .number(Double(blocked)),
            "percent_blocked": .number(queries == 0 ? 0 : (Double(blocked) * 1000 / Double(queries)).rounded() / 10),
            "piholes": .array(read.map { .string($0.0) }),
        ]
    }
}
