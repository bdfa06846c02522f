import BridgeCore

/// Switching outlets unasked (feed mode, an interlock): no sender waits to try again.
extension ReefOutletControl {
    /// A switch that fails is tried once more, at once.
    static let switchOffAttempts = 2

    /// Turns the outlet off. - Returns: `nil` when it is off; else why it is not, after `switchOffAttempts` tries.
    func switchOff(_ id: String) async -> CommandError? {
        var last: CommandError?
        for _ in 1...Self.switchOffAttempts {
            do {
                try await services.upstream.call(.outlets) { try await $0.turnOff(id) }
                return nil
            } catch {
                last = Self.commandError(error, key: id)
            }
        }
        return last
    }
}
