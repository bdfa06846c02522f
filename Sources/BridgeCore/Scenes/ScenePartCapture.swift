#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What one part of a scene promises to undo, by timer key: the restores its integration's timed
/// command would have kept as timers of its own, kept by the scene's one promise instead.
final class ScenePartCapture: Sendable {
    /// What an earlier ON of the same scene promised: a second ON keeps it, so OFF goes back to
    /// the state before the first.
    private let earlier: [String: JSONValue]
    /// When the scene ends, for the part's answer.
    let dueAt: Date
    private let recorded = Mutex<[(key: String, restore: JSONValue)]>([])

    init(earlier: [String: JSONValue], dueAt: Date) {
        self.earlier = earlier
        self.dueAt = dueAt
    }

    func record(key: String, restore: JSONValue) {
        recorded.withLock { recorded in
            recorded.removeAll { $0.key == key }
            recorded.append((key, restore))
        }
    }

    func restore(key: String) -> JSONValue? {
        recorded.withLock { $0.last { $0.key == key }?.restore } ?? earlier[key]
    }

    var restores: [(key: String, restore: JSONValue)] { recorded.withLock { $0 } }
}
