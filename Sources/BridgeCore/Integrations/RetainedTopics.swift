import Synchronization

/// The retained topics a running integration has published and not cleared, relative to its
/// root: a reload clears them when the integration is removed, and hands them to its successor
/// when it is changed, which clears those it no longer publishes.
final class RetainedTopics: Sendable {
    private struct State {
        var topics: Set<String> = []
        var inherited: Set<String> = []
    }

    private let state = Mutex(State())

    /// Takes over what `predecessor` published: before this run starts, once that one stopped.
    func inherit(from predecessor: RetainedTopics) {
        let topics = predecessor.all
        state.withLock { state in
            state.inherited = topics
            state.topics.formUnion(topics)
        }
    }

    /// What the integration's predecessor left.
    var inherited: Set<String> { state.withLock { $0.inherited } }

    func published(_ topic: String, cleared: Bool) {
        state.withLock { state in
            if cleared { state.topics.remove(topic) } else { state.topics.insert(topic) }
        }
    }

    var all: Set<String> { state.withLock { $0.topics } }
}
