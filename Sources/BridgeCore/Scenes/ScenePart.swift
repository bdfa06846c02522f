/// One part of a scene as configured: the thing an integration changes and the state it takes
/// (`pihole_group: kids` with `enabled: false`).
public struct ScenePart: Sendable {
    /// The integration that carries it out: `pihole`.
    public let integration: String
    /// The key that names its target: `pihole_group`.
    public let kind: String
    /// The target as configured: `kids`.
    public let target: String
    /// The part's configuration item, for its integration to read its other keys from.
    public let item: ConfigSection

    public init(integration: String, kind: String, target: String, item: ConfigSection) {
        self.integration = integration
        self.kind = kind
        self.target = target
        self.item = item
    }

    /// How answers and logs name it: `pihole_group kids`.
    var label: String { "\(kind) \(target)" }
}

/// A scene: a name, a topic key, and its parts in the configured order.
struct Scene: Sendable {
    let name: String
    let key: String
    let parts: [ScenePart]
}
