import BellasReefAPI
import BridgeCore

/// Switching outlets unasked (feed mode, an interlock, a restore): no sender waits to try again.
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

    /// How putting an outlet back went.
    enum SwitchBack {
        case done
        /// The outlet is gone from the controller, or disabled: it never will be.
        case gone(any Error)
        /// It may work later (the plug or the service is away).
        case failed(any Error)
    }

    /// Puts the outlet on or off again: a timed command's restore, a hold's release, a feed's end.
    func switchBack(_ id: String, on: Bool) async -> SwitchBack {
        do {
            if on {
                try await services.upstream.call(.outlets) { try await $0.turnOn(id) }
            } else {
                try await services.upstream.call(.outlets) { try await $0.turnOff(id) }
            }
            return .done
        } catch let error as BellasReefError where [.notFound, .outletDisabled, .invalidID].contains(error.code) {
            return .gone(error)
        } catch {
            return .failed(error)
        }
    }
}
