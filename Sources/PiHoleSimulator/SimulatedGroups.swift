#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A group of the gravity database, as `PiHoleSimulator.group(named:)` shows it.
public struct SimulatedGroup: Sendable, Equatable {
    public let id: Int
    public var name: String
    public var comment: String?
    public var enabled: Bool
    public let dateAdded: Date
    public var dateModified: Date
}

/// The groups table, starting with FTL's Default group, plus what tests check: how many
/// PUTs arrived and how many groups a PUT created.
struct SimulatedGroups: Sendable {
    /// The Default group's fixed creation time (FTL's database ships with it).
    static let defaultAdded = Date(timeIntervalSince1970: 1_594_670_974)

    private(set) var all: [SimulatedGroup] = [
        SimulatedGroup(
            id: 0, name: "Default", comment: "The default group", enabled: true,
            dateAdded: defaultAdded, dateModified: defaultAdded)
    ]
    private var nextID = 1
    var putCount = 0
    var createdByPost = 0

    func named(_ name: String) -> SimulatedGroup? { all.first { $0.name == name } }

    /// Adds a group; `false` when the name is taken (FTL: `UNIQUE constraint failed`).
    @discardableResult
    mutating func add(name: String, comment: String?, enabled: Bool, now: Date) -> Bool {
        guard named(name) == nil else { return false }
        all.append(
            SimulatedGroup(
                id: nextID, name: name, comment: comment, enabled: enabled, dateAdded: now, dateModified: now))
        nextID += 1
        return true
    }

    /// Changes the group `name`; `false` when it does not exist or the new name is taken.
    @discardableResult
    mutating func update(_ name: String, now: Date, _ change: (inout SimulatedGroup) -> Void) -> Bool {
        guard let index = all.firstIndex(where: { $0.name == name }) else { return false }
        var group = all[index]
        change(&group)
        if group.name != name && named(group.name) != nil { return false }
        group.dateModified = now
        all[index] = group
        return true
    }

    @discardableResult
    mutating func remove(_ name: String) -> Bool {
        guard let index = all.firstIndex(where: { $0.name == name }) else { return false }
        all.remove(at: index)
        return true
    }
}
