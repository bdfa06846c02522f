/// `scenes:`, read and checked against the integrations that carry the parts out: a part of a
/// kind no configured integration has, or one its integration cannot read, stops the start.
enum SceneConfiguration {
    static let maximumParts = 32

    static func read(_ root: ConfigSection, integrations: [any Integration]) throws(ConfigError) -> [Scene] {
        guard root.contains(SceneTopics.configurationKey) else { return [] }
        var byKind: [String: any SceneTargets] = [:]
        for case let targets as any SceneTargets in integrations {
            for kind in targets.scenePartKinds { byKind[kind] = targets }
        }
        var scenes: [Scene] = []
        for item in try root.sections(SceneTopics.configurationKey) {
            let item = try item.allowing(["name", "parts"])
            let name = try item.requiredString("name")
            let key = SceneTopics.key(name)
            guard !scenes.contains(where: { $0.key == key }) else {
                throw ConfigError(key: item.keyPath("name"), "'\(name)' makes the topic key '\(key)', which another scene has")
            }
            let parts = try item.sections("parts")
            guard (1...maximumParts).contains(parts.count) else {
                throw ConfigError(key: item.keyPath("parts"), "a scene needs 1 to \(maximumParts) parts, got \(parts.count)")
            }
            var read: [ScenePart] = []
            for part in parts { read.append(try self.part(part, byKind: byKind)) }
            scenes.append(Scene(name: name, key: key, parts: read))
        }
        return scenes
    }

    /// The one key of `item` that names a part kind, its target, and its integration's reading of the rest.
    private static func part(_ item: ConfigSection, byKind: [String: any SceneTargets]) throws(ConfigError) -> ScenePart {
        let kinds = item.keys.filter { byKind[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let integration = byKind[kind] else {
            let known = byKind.keys.sorted().joined(separator: ", ")
            throw ConfigError(
                key: item.path,
                kinds.isEmpty
                    ? "names no part of a configured integration (known: \(known.isEmpty ? "none" : known)); each kind needs its integration's section"
                    : "names \(kinds.count) parts (\(kinds.joined(separator: ", "))); give each its own item")
        }
        let target = try item.requiredString(kind)
        let part = ScenePart(integration: integration.name, kind: kind, target: target, item: item)
        _ = try integration.sceneCommand(for: part, until: .seconds(1))
        return part
    }
}

extension LoadedConfiguration {
    /// The scenes of `scenes:`, checked against `integrations` (the enabled ones), as the bridge's
    /// own integration; `nil` without scenes.
    public func scenes(over integrations: [any Integration]) throws(ConfigError) -> (any Integration)? {
        let scenes = try SceneConfiguration.read(ConfigSection(tree), integrations: integrations)
        return scenes.isEmpty ? nil : SceneIntegration(scenes: scenes, participants: integrations)
    }
}
