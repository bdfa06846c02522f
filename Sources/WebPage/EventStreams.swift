import BridgeCore
import NIOCore
import Synchronization

/// The pages' event streams: each starts with a snapshot of everything the page shows, then
/// gets every change as the bridge makes it, and the bridge's own status every few seconds.
/// Bounded in number; each one bounded in what waits for it (`EventStreamChannel`).
final class EventStreams: Sendable {
    static let maximumStreams = 16
    static let statusInterval = TimeAmount.seconds(5)

    private let activity: PageActivity
    private let status: @Sendable () -> JSONValue
    private let openCount = Atomic<Int>(0)

    init(activity: PageActivity, status: @escaping @Sendable () -> JSONValue) {
        self.activity = activity
        self.status = status
    }

    func open() -> WebAnswer {
        guard openCount.add(1, ordering: .relaxed).newValue <= Self.maximumStreams else {
            openCount.subtract(1, ordering: .relaxed)
            return .full(.text(.serviceUnavailable, "too many pages open: at most \(Self.maximumStreams)"))
        }
        return .events { [self] stream in start(stream) }
    }

    private func start(_ stream: EventStreamChannel) {
        let activity = activity, status = status
        let bridge = status()
        let id = activity.subscribe(start: { snapshot in
            var first = snapshot
            if case .object(var members) = snapshot {
                members["bridge"] = bridge
                first = .object(members)
            }
            stream.send("snapshot", first.encodedString())
        }, { event in
            stream.send(event.name, event.json.encodedString())
        })
        let ticker = stream.eventLoop.scheduleRepeatedTask(initialDelay: Self.statusInterval, delay: Self.statusInterval) { _ in
            stream.send("bridge", status().encodedString())
        }
        stream.closeFuture.whenComplete { [self] _ in
            ticker.cancel()
            activity.unsubscribe(id)
            openCount.subtract(1, ordering: .relaxed)
        }
    }
}
