import BridgeCore

/// The scene part `reef_outlet: <name, key or id>` with `state: on|off`: the outlet's own timed switch.
extension ReefIntegration: SceneTargets {
    var scenePartKinds: Set<String> { [ReefTopics.outletPart] }

    func sceneCommand(for part: ScenePart, until: Duration) throws(ConfigError) -> ReefCommand {
        let item = try part.item.allowing([part.kind, "state"])
        guard let on = try item.string("state").flatMap(SwitchWord.parse) else {
            throw ConfigError(key: item.keyPath("state"), "an outlet part needs state: on or off")
        }
        return .setOutlet(target: part.target, OutletSwitch(action: on ? .on : .off, duration: until))
    }
}

extension ReefIntegration {
    /// The outlet is one the controller lists, by name, key or id.
    func checkSceneTarget(_ part: ScenePart) async throws(ConfigError) {
        do throws(CommandError) {
            _ = try await control.resolve(part.target)
        } catch {
            // The controller did not answer: the part is checked when the scene runs.
            guard services.state.read(\.outletsListed) else { return }
            throw ConfigError(key: part.item.keyPath(part.kind), error.message)
        }
    }
}
