import BridgeCore

/// The scene part `unifi_rule: <name, key or id>` with `enabled`: the rule's own timed switch.
extension UniFiIntegration: SceneTargets {
    var scenePartKinds: Set<String> { [UniFiTopics.rulePart] }

    func sceneCommand(for part: ScenePart, until: Duration) throws(ConfigError) -> UniFiCommand {
        let item = try part.item.allowing([part.kind, "enabled"])
        guard item.contains("enabled") else { throw ConfigError(key: item.keyPath("enabled"), "a rule part needs enabled: true or false") }
        return .setRule(keyOrID: part.target, SwitchCommand(enabled: try item.bool("enabled", default: true), duration: until))
    }
}

extension UniFiIntegration {
    /// The rule is one a console lists, by name, key or id.
    func checkSceneTarget(_ part: ScenePart) async throws(ConfigError) {
        guard await findReadingAgainIfUnknown(part.target) == nil else { return }
        let known = registry.withLock(\.keyList)
        // No console answered (nothing is known): the part is checked when the scene runs.
        guard registry.withLock({ !$0.rules.isEmpty }) else { return }
        throw ConfigError(key: part.item.keyPath(part.kind), "no console has a rule '\(part.target)' (managed: \(known))")
    }
}
