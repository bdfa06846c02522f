/// A command read once by its integration, with what the command queue needs of it: the lanes
/// it waits for, its time limit, and the work that carries it out.
struct PreparedCommand: Sendable {
    let lanes: Set<String>
    /// `nil`: the bridge's `command_timeout`.
    let timeLimit: Duration?
    let run: @Sendable (IntegrationContext) async -> Result<JSONValue?, CommandError>
}

extension Integration {
    /// Parses `request` once and binds the parsed command to the integration's `lanes`, time
    /// limit (`CommandTimeLimits`) and `handle`: the queue holds integrations of every kind
    /// behind one type.
    func prepare(_ request: CommandRequest) throws(CommandError) -> PreparedCommand {
        bind(try parse(request), capture: nil)
    }

    fileprivate func bind(_ command: Command, capture: ScenePartCapture?) -> PreparedCommand {
        let timeLimit = (self as? any CommandTimeLimits)?.timeLimit(forCommand: command)
        return PreparedCommand(lanes: lanes(for: command), timeLimit: timeLimit) { context in
            do throws(CommandError) {
                return .success(try await handle(command, context: capture.map(context.capturing) ?? context))
            } catch {
                return .failure(error)
            }
        }
    }
}

extension SceneTargets {
    /// A scene's part, ready for this integration's queue: what it promises goes to `capture`.
    func prepareScenePart(_ part: ScenePart, until: Duration, capture: ScenePartCapture) throws(ConfigError) -> PreparedCommand {
        bind(try sceneCommand(for: part, until: until), capture: capture)
    }
}
