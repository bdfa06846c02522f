#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scene's one promise, as its timer keeps it across restarts: what each part's integration is
/// to restore when the scene ends, and how each part fared at the last ON.
struct ScenePromise: Sendable, Equatable {
    /// One restore, as the integration's own timer would have held it.
    struct Restore: Sendable, Equatable {
        let integration: String
        let key: String
        let restore: JSONValue
    }

    var restores: [Restore]
    /// Each part at the last ON: `{"kind","target","status"[,"error"]}`.
    var parts: [JSONValue]
    /// The scene is ending (OFF, or its time ran out) and some parts are still to be restored.
    var ending = false

    /// The due time of a scene turned on with no time: it lasts until OFF.
    static let untilTurnedOff = Date(timeIntervalSince1970: 253_402_300_799)

    /// Whether a promise due at `dueAt` was made to last until OFF: no timed ON reaches that far.
    static func lastsUntilOff(_ dueAt: Date) -> Bool {
        dueAt.timeIntervalSinceNow > 2 * Double(TimedCommand.maximum.components.seconds)
    }

    init(restores: [Restore], parts: [JSONValue], ending: Bool = false) {
        self.restores = restores
        self.parts = parts
        self.ending = ending
    }

    init(_ timer: PersistedTimer) {
        restores = (timer.restore["restores"]?.arrayValue ?? []).compactMap { item in
            guard let integration = item["integration"]?.stringValue, let key = item["key"]?.stringValue, let restore = item["restore"] else {
                return nil
            }
            return Restore(integration: integration, key: key, restore: restore)
        }
        parts = timer.restore["parts"]?.arrayValue ?? []
        ending = timer.restore["ending"] == true
    }

    var json: JSONValue {
        [
            "restores": .array(restores.map { ["integration": .string($0.integration), "key": .string($0.key), "restore": $0.restore] }),
            "parts": .array(parts), "ending": .bool(ending),
        ]
    }

    /// What an earlier ON promised for `integration`'s timers, by key: a second ON keeps it.
    func restores(of integration: String) -> [String: JSONValue] {
        Dictionary(restores.filter { $0.integration == integration }.map { ($0.key, $0.restore) }) { first, _ in first }
    }

    /// Adds what a part promised now, keeping an earlier promise for the same timer.
    mutating func add(_ restore: Restore) {
        guard !restores.contains(where: { $0.integration == restore.integration && $0.key == restore.key }) else { return }
        restores.append(restore)
    }
}
