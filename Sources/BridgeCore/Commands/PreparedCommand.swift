/// A command read once by its integration, with what the command queue needs of it: the lanes
/// it waits for, its time limit, and the work that carries it out.
struct PreparedCommand: Sendable {
    let lanes: Set<String>
    /// `nil`: the bridge's `command_timeout`.
    let timeLimit: Duration?
    let carryOut: @Sendable (IntegrationContext) async -> Result<JSONValue?, CommandError>
}

extension Integration {
    /// Parses `request` once and binds the parsed command to the integration's `lanes`,
    /// `timeLimit` and `handle`: the queue holds integrations of every kind behind one type.
    func prepare(_ request: CommandRequest) throws(CommandError) -> PreparedCommand {
        let command = try parse(request)
        return PreparedCommand(lanes: lanes(for: command), timeLimit: timeLimit(for: command)) { context in
            do throws(CommandError) {
                return .success(try await handle(command, context: context))
            } catch {
                return .failure(error)
            }
        }
    }
}
