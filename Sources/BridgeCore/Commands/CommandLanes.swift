/// Which commands may run now. Each command names the lanes it occupies: commands sharing a
/// lane run one at a time in arrival order, commands with no lane in common run at once, and a
/// command in several lanes (one addressed to every Pi-hole, say) waits until it is first in all
/// of them — so it keeps its place in line with the commands of each. At most `capacity` are
/// running or waiting in all. The integration's own actions (an interlock's trip) go `ahead`:
/// never refused, and in line before every command still waiting. A pure value: the queue
/// performs what it decides.
struct CommandLanes<Item: Sendable>: Sendable {
    /// One admitted command, until it has finished.
    struct Ticket: Hashable, Comparable, Sendable {
        fileprivate let number: Int
        static func < (a: Ticket, b: Ticket) -> Bool { a.number < b.number }
    }

    enum Admission: Equatable {
        /// First in each of its lanes: start it now.
        case start(Ticket)
        /// It waits behind earlier commands in one of its lanes.
        case queued
        /// `capacity` commands are already running or waiting.
        case refused
    }

    let capacity: Int
    /// Each lane's tickets in arrival order: the first is running, or waits for another lane.
    private(set) var lanes: [String: [Ticket]] = [:]
    private var admitted: [Ticket: (item: Item, lanes: Set<String>, ahead: Bool)] = [:]
    private var running: Set<Ticket> = []
    private var nextNumber = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Commands running or waiting.
    var count: Int { admitted.count }

    mutating func admit(_ item: Item, lanes names: Set<String>, ahead: Bool = false) -> Admission {
        guard ahead || count < capacity else { return .refused }
        let ticket = Ticket(number: nextNumber)
        nextNumber += 1
        let names = names.isEmpty ? [""] : names
        for name in names {
            // After what runs and the earlier actions: every lane puts them in the same order, so
            // none waits for another in a circle.
            if ahead, let place = lanes[name]?.firstIndex(where: { !running.contains($0) && admitted[$0]?.ahead != true }) {
                lanes[name]!.insert(ticket, at: place)
            } else {
                lanes[name, default: []].append(ticket)
            }
        }
        admitted[ticket] = (item, names, ahead)
        guard isFirstInAllLanes(ticket) else { return .queued }
        running.insert(ticket)
        return .start(ticket)
    }

    /// A running command has finished. - Returns: the commands that may start now, in arrival
    /// order (a command that occupied several lanes may free several). Empty lanes are
    /// forgotten, so lanes do not pile up.
    mutating func finished(_ ticket: Ticket) -> [(Ticket, Item)] {
        guard let entry = admitted.removeValue(forKey: ticket) else { return [] }
        running.remove(ticket)
        var candidates: Set<Ticket> = []
        for name in entry.lanes {
            lanes[name]?.removeFirst()
            if let next = lanes[name]?.first {
                candidates.insert(next)
            } else {
                lanes[name] = nil
            }
        }
        var starting: [(Ticket, Item)] = []
        for candidate in candidates.sorted() where !running.contains(candidate) && isFirstInAllLanes(candidate) {
            running.insert(candidate)
            starting.append((candidate, admitted[candidate]!.item))
        }
        return starting
    }

    private func isFirstInAllLanes(_ ticket: Ticket) -> Bool {
        admitted[ticket]!.lanes.allSatisfy { lanes[$0]?.first == ticket }
    }
}
