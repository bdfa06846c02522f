#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bridge's retained state as it last published it, for the page: bounded by count and bytes,
/// so that a thousand UniFi rules or a runaway payload cannot grow the bridge without end.
struct RetainedMirror: Sendable {
    struct Entry: Sendable, Equatable {
        var payload: String
        /// When the payload last changed: an availability's "since when".
        var changedAt: Date
    }

    static let maximumTopics = 4096
    static let maximumBytes = 4 << 20
    static let maximumPayloadBytes = 64 << 10

    private(set) var entries: [String: Entry] = [:]
    private var bytes = 0
    /// Topics left out because a bound was reached: the page says so rather than pretend.
    private(set) var leftOut = 0

    /// Records a retained publish; an empty payload clears its topic. `nil` when nothing changed.
    mutating func record(_ topic: String, _ payload: String, at now: Date) -> Entry? {
        let old = entries[topic]
        if payload.isEmpty {
            guard let old else { return nil }
            bytes -= topic.utf8.count + old.payload.utf8.count
            entries[topic] = nil
            return Entry(payload: "", changedAt: now)
        }
        guard old?.payload != payload else { return nil }
        let size = topic.utf8.count + payload.utf8.count
        let grown = bytes - (old.map { topic.utf8.count + $0.payload.utf8.count } ?? 0) + size
        guard payload.utf8.count <= Self.maximumPayloadBytes, grown <= Self.maximumBytes,
              old != nil || entries.count < Self.maximumTopics else {
            leftOut += 1
            return nil
        }
        bytes = grown
        let entry = Entry(payload: payload, changedAt: now)
        entries[topic] = entry
        return entry
    }
}

/// The newest `capacity` elements, oldest first.
struct RecentRing<Element: Sendable>: Sendable {
    let capacity: Int
    private(set) var elements: [Element] = []

    init(capacity: Int) {
        self.capacity = capacity
        elements.reserveCapacity(capacity)
    }

    mutating func append(_ element: Element) {
        if elements.count == capacity { elements.removeFirst() }
        elements.append(element)
    }

    mutating func remove(at index: Int) -> Element {
        elements.remove(at: index)
    }
}
