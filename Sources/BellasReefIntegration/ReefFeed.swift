import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Feed mode: the configured outlets (a return pump, a skimmer) off for a while, then each back
/// to the state it had before. One persisted promise for all of them: a second feed before the
/// first ends extends it and keeps the first's promise; `cancel` keeps it at once.
///
/// An outlet an interlock holds is the interlock's: a feed neither switches it nor promises it
/// back, and a feed's end that falls during a hold hands the outlet's state to the hold.
struct ReefFeed: Sendable {
    let configuration: ReefFeedConfiguration
    let services: ReefServices
    let control: ReefOutletControl
    let interlocks: ReefInterlocks
    let logger: Logger

    func start(for duration: Duration?, timers: IntegrationTimers) async throws(CommandError) -> JSONValue {
        let duration = duration ?? configuration.defaultDuration
        let outlets = try await resolveAll()
        let pending = timers.pending(key: ReefTopics.feedTimer)
        // The states before the feed: those the first feed saved, else as read now. An outlet
        // whose state cannot be read is not switched (it could not be put back as it was).
        var before: [String: JSONValue] = pending?.restore["outlets"]?.objectValue ?? [:]
        var results: [String: JSONValue] = [:]
        var failures = 0
        for outlet in outlets {
            let id = outlet.outlet.id
            let result = await interlocks.unlessHeld(outletID: id, timers: timers) { () async -> JSONValue in
                if before[id] == nil {
                    do {
                        let isOn = try await services.upstream.call(.outlets) { try await $0.outletState(id) }.isOn
                        before[id] = isOn ? "on" : "off"
                    } catch {
                        failures += 1
                        return .string("failed: \(ReefOutletControl.commandError(error, key: outlet.key))")
                    }
                }
                // One that still fails is reported, and the other outlets go regardless.
                let failure = await control.switchOff(id)
                if failure != nil { failures += 1 }
                return failure.map { .string("failed: \($0)") } ?? "off"
            }
            results[outlet.key] = result ?? "held off by an interlock"
        }
        guard failures < outlets.count else {
            throw CommandError("no feed outlet could be turned off: \(JSONValue.object(results).encodedString())", code: .upstreamUnavailable)
        }
        let restore: JSONValue = ["outlets": .object(before)]
        try await timers.set(key: ReefTopics.feedTimer, restore: restore, after: duration)
        services.state.changed.signal()
        return [
            "active": true, "until": timers.pending(key: ReefTopics.feedTimer).map { .string($0.dueAt.iso8601) } ?? .null,
            "outlets": .object(results),
        ]
    }

    /// Restores the feed outlets now and drops the promise.
    func cancel(timers: IntegrationTimers) async throws(CommandError) -> JSONValue {
        guard let pending = timers.pending(key: ReefTopics.feedTimer) else { throw CommandError("no feed is running", code: .conflict) }
        let failed = await restoreEach(pending, timers: timers)
        guard failed.isEmpty else {
            throw CommandError("not every feed outlet could be restored (\(failed.joined(separator: ", "))); the feed's end will try again", code: .upstreamUnavailable)
        }
        try await timers.cancel(key: ReefTopics.feedTimer)
        services.state.changed.signal()
        return ["active": false, "restored": .array((pending.restore["outlets"]?.objectValue ?? [:]).keys.sorted().map(JSONValue.string))]
    }

    /// The feed's end. - Returns: `false` to try again later (an outlet could not be switched).
    func restore(_ timer: PersistedTimer, timers: IntegrationTimers) async -> Bool {
        let failed = await restoreEach(timer, timers: timers)
        if failed.isEmpty {
            logger.info("feed ended: outlets restored")
            services.state.update { $0.completedRestores.append(timer) }
            return true
        }
        logger.warning("feed ended, but outlets could not be restored yet; trying again", metadata: ["outlets": "\(failed)"])
        return false
    }

    /// Sets each saved outlet to its saved state (or hands it to the interlock that holds the
    /// outlet); an outlet gone from the controller is skipped.
    /// - Returns: the ids that could not be switched.
    private func restoreEach(_ timer: PersistedTimer, timers: IntegrationTimers) async -> [String] {
        var failed: [String] = []
        for (id, state) in (timer.restore["outlets"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let on = state.stringValue.flatMap(SwitchWord.parse) else { continue }
            let restored = await interlocks.restoring(outletID: id, to: state, timers: timers) { await switchBack(id, on: on) }
            if !restored { failed.append(id) }
        }
        return failed
    }

    /// - Returns: `false` if the outlet could not be switched (tried again later).
    private func switchBack(_ id: String, on: Bool) async -> Bool {
        do {
            if on {
                try await services.upstream.call(.outlets) { try await $0.turnOn(id) }
            } else {
                try await services.upstream.call(.outlets) { try await $0.turnOff(id) }
            }
        } catch let error as BellasReefError where [.notFound, .invalidID].contains(error.code) {
            logger.warning("a feed outlet is gone from the controller; not restored", metadata: ["outlet": "\(id)"])
        } catch {
            return false
        }
        return true
    }

    /// Every configured feed outlet, by name, key or id; one the controller does not list stops
    /// the feed before anything is switched.
    private func resolveAll() async throws(CommandError) -> [OutletStatus] {
        var found: [OutletStatus] = []
        for name in configuration.outlets {
            found.append(try await control.resolve(name))
        }
        return found
    }
}
