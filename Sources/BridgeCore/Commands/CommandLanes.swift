/// Which commands may run now: commands in the same lane run one at a time in arrival order,
/// commands in different lanes run at once, and at most `capacity` are running or waiting in
/// all. A pure value: the queue performs what it decides.
struct CommandLanes<Item: Sendable>: Sendable {
    enum Admission: Equatable {
        /// Nothing runs in its lane: start it now.
        case start
        /// It waits behind the command running in its lane.
        case queued
        /// `capacity` commands are already running or waiting.
        case refused
    }

    let capacity: Int
    /// Lanes with a running command, and what waits behind it.
    private(set) var waiting: [String: [Item]] = [:]
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func admit(_ item: Item, lane: String) -> Admission {
        guard count < capacity else { return .refused }
        count += 1
        guard waiting[lane] == nil else {
            waiting[lane]!.append(item)
            return .queued
        }
        waiting[lane] = []
        return .start
    }

    /// The lane's running command has finished. - Returns: the next one to run in it, if any
    /// (a lane with nothing left is forgotten, so lanes do not pile up).
    mutating func finished(lane: String) -> Item? {
        count -= 1
        guard var queue = waiting[lane], !queue.isEmpty else {
            waiting[lane] = nil
            return nil
        }
        let next = queue.removeFirst()
        waiting[lane] = queue
        return next
    }
}
