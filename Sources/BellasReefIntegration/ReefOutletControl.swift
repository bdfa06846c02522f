import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Switching outlets: commands, and the restores that timed commands promised. Every answer
/// carries the outlet's state as read back after the change, so the sender knows the outcome.
struct ReefOutletControl: Sendable {
    let services: ReefServices
    let poller: ReefOutletPoller
    let logger: Logger

    /// The outlet a command names, by key, id or name; the list is read first if it never was.
    /// An unknown one is refused without any call for it.
    func resolve(_ target: String) async throws(CommandError) -> OutletStatus {
        if !services.state.read(\.outletsListed) { await poller.list() }
        let (found, known) = services.state.read { ($0.outlet(named: target), $0.knownOutletKeys) }
        guard let found else {
            throw CommandError("unknown outlet '\(target)' (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))", code: .unknownTarget)
        }
        return found
    }

    func perform(_ change: OutletSwitch, on target: String, timers: IntegrationTimers) async throws(CommandError) -> JSONValue {
        let outlet = try await resolve(target)
        let id = outlet.outlet.id
        let timerKey = ReefTopics.restoreTimer(outletID: id)
        do {
            try await timers.change(key: timerKey, timedFor: change.duration) { pending in
                // A second timed command keeps the first one's promise: back to how it was before either.
                if let pending { return pending }
                let isOn = try await services.upstream.call(.outlets) { try await $0.outletState(id) }.isOn
                return ["state": isOn ? "on" : "off"]
            } _: {
                switch change.action {
                case .on: try await services.upstream.call(.outlets) { try await $0.turnOn(id) }
                case .off: try await services.upstream.call(.outlets) { try await $0.turnOff(id) }
                case .toggle: _ = try await services.upstream.call(.outlets) { try await $0.toggle(id) }
                }
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw Self.commandError(error, key: outlet.key)
        }
        // The answer tells what the plug says now, even slowly; the published state trusts only timely reads.
        guard case .success(let readBack) = await poller.readState(id) else {
            throw CommandError("\(outlet.key): switched, but its state could not be read back: \(services.state.read { $0.outlets[id]?.error } ?? "no answer")", code: .upstreamUnavailable)
        }
        return services.state.read { snapshot in
            ReefPayloads(snapshot: snapshot, services: [.outlets], pending: timers.pending).payload(snapshot.outlets[id] ?? outlet, readBack: readBack)
        }
    }

    /// Carries out a restore that fell due. - Returns: whether it is settled (done, or can never
    /// be: the outlet is gone or disabled); `false` has it tried again a little later.
    func restore(_ timer: PersistedTimer) async -> Bool {
        guard let id = ReefTopics.outletID(ofRestoreTimer: timer.key), let state = timer.restore["state"]?.stringValue,
              let on = SwitchWord.parse(state)
        else {
            logger.error("a saved outlet restore makes no sense and is dropped", metadata: ["timer": "\(timer.key)"])
            return true
        }
        let metadata: Logger.Metadata = ["outlet": "\(id)", "state": "\(state)"]
        switch await switchBack(id, on: on) {
        case .done:
            break
        case .gone(let error):
            logger.error("an outlet could not be restored and never will be; giving up", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            services.state.update { $0.completedRestores.append(timer) }
            return true
        case .failed(let error):
            logger.warning("an outlet could not be restored yet; trying again", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return false
        }
        logger.info("outlet restored after a timed command", metadata: metadata)
        services.state.update { $0.completedRestores.append(timer) }
        await poller.readState(id)
        return true
    }

    /// The controller's own code and words: `heater: outlet_disabled (HTTP 409): The operation …`.
    static func commandError(_ error: any Error, key: String) -> CommandError {
        guard let reefError = error as? BellasReefError, let code = reefError.controllerCode else { return CommandError(key, failure: error) }
        return CommandError(
            "\(key): \(code)\(reefError.status.map { " (HTTP \($0))" } ?? ""): \(reefError.message)", code: reefError.commandErrorCode)
    }
}
