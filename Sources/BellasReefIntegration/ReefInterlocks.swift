import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// The outlet interlocks (`reef.interlocks`): judged with the guard at every reading, they turn an
/// outlet off when its probe runs hot and hold it off with a persisted timer, so that the hold
/// outlives a restart. The bridge does this itself, whether or not Home Assistant is up.
///
/// Every trip, release and restore takes the outlet's turn (`IntegrationContext.inTurn`), in the
/// line its commands wait in: one outlet, one line.
///
/// A user's later command on a held outlet wins: the hold ends (its timer is dropped), and the
/// interlock watches again once the probe is back down. The person at the tank knows what a probe
/// cannot (a probe lifted out of the water).
final class ReefInterlocks: Sendable {
    struct Status: Sendable, Equatable {
        var phase: OutletInterlock.Phase
        var since: Date
        /// Why it tripped, while it is tripped.
        var reason: OutletInterlock.TripReason?
    }

    struct State {
        var statuses: [String: Status] = [:]
        /// Trips asked for by `judge`, and why, not yet carried out by `run`.
        var tripping: [String: OutletInterlock.TripReason] = [:]
        /// The last failure of each interlock's trip, and when: it is tried again at the next reading,
        /// and a plug that stays away is logged once, not at every reading.
        var failures: [String: (error: String, at: Date)] = [:]
        /// Interlocks whose probe the controller does not list (logged once: such an interlock never acts).
        var probeMissing: Set<String> = []
        /// Tripped interlocks whose outlet a reading saw on, to be read again by `run`.
        var seenOnWhileHeld: Set<String> = []
        /// Holds whose time is up, waiting for a fresh reading back down: tried at every reading.
        var awaitingReading: Set<String> = []
    }

    /// What a judging changed, to be logged.
    struct Changes {
        var rearmed: [ReefInterlockConfiguration] = []
        /// Interlocks whose probe has just been found missing from the controller's list.
        var probeMissing: [ReefInterlockConfiguration] = []
    }

    let interlocks: [ReefInterlockConfiguration]
    let services: ReefServices
    private let control: ReefOutletControl
    let logger: Logger
    let state = Mutex(State())
    private let tripAsked = Wakeup()

    init(configuration: [ReefInterlockConfiguration], services: ReefServices, control: ReefOutletControl, logger: Logger) {
        interlocks = configuration
        self.services = services
        self.control = control
        self.logger = logger
    }

    /// Takes up the holds an earlier run left: an interlock with a pending timer is tripped, since
    /// the trip its hold saved. Called before the timers run.
    func resume(pending: [PersistedTimer], now: Date) {
        state.withLock { state in
            for interlock in interlocks {
                let hold = pending.first { $0.key == ReefTopics.interlockTimer(interlock.key) }
                state.statuses[interlock.key] = hold.map {
                    // A hold saved before the trip time was: its due time less `min_off`.
                    let trippedAt = $0.restore[Self.trippedAt]?.numberValue.map(Date.init(timeIntervalSince1970:))
                    return Status(
                        phase: .tripped, since: trippedAt ?? $0.dueAt.addingTimeInterval(-Double(interlock.rule.minOff.components.seconds)),
                        reason: $0.restore[Self.reason]?.stringValue.flatMap(OutletInterlock.TripReason.init) ?? .above)
                } ?? Status(phase: .armed, since: now)
            }
        }
    }

    /// The hold's restore key for the time of the trip (seconds since 1970): its `since` after a restart.
    private static let trippedAt = "tripped_at"
    /// The hold's restore key for why it tripped.
    private static let reason = "reason"

    /// Whether an interlock fails safe: a lost probe is found by the clock, not only by a reading.
    var watchesForLostProbes: Bool { interlocks.contains { $0.rule.onProbeLost == .off } }

    /// Judges every interlock on `snapshot`: asks `run` for the trips it calls for, and re-arms an
    /// overridden interlock whose probe is back down. A release waits for the hold's timer.
    func judge(_ snapshot: ReefSnapshot, now: Date) -> Changes {
        let (changes, asked) = state.withLock { state in
            var changes = Changes()
            var asked = false
            for interlock in interlocks {
                guard let status = state.statuses[interlock.key] else { continue }
                if status.phase == .tripped, let outlet = snapshot.outlet(named: interlock.outlet),
                   outlet.lastState?.isOn == true, let seen = outlet.lastSeen, seen > status.since {
                    asked = state.seenOnWhileHeld.insert(interlock.key).inserted || asked
                }
                let probe = snapshot.probe(named: interlock.probe)
                if probe == nil {
                    if snapshot.probesListed, state.probeMissing.insert(interlock.key).inserted { changes.probeMissing.append(interlock) }
                } else {
                    state.probeMissing.remove(interlock.key)
                }
                let failed = probe?.error != nil
                let next = interlock.rule.phase(
                    value: probe?.value, readAt: probe?.readAt, failed: failed, now: now, in: status.phase, watchingSince: status.since)
                switch (status.phase, next) {
                case (.armed, .tripped):
                    let lost = interlock.rule.probeLost(readAt: probe?.readAt, failed: failed, now: now, watchingSince: status.since)
                    // A trip that failed is tried again at the next reading; a lost probe's at the next look.
                    if !lost, let failure = state.failures[interlock.key], let readAt = probe?.readAt, readAt <= failure.at { continue }
                    asked = state.tripping.updateValue(lost ? .probeLost : .above, forKey: interlock.key) == nil || asked
                case (.overridden, .armed):
                    state.statuses[interlock.key] = Status(phase: .armed, since: now)
                    changes.rearmed.append(interlock)
                default:
                    break
                }
            }
            return (changes, asked)
        }
        if asked { tripAsked.signal() }
        return changes
    }

    /// Whether a hold whose time is up waits for a reading: the next one is its moment.
    var awaitsReading: Bool {
        state.withLock { !$0.awaitingReading.isEmpty }
    }

    func announce(_ changes: Changes) {
        for interlock in changes.rearmed {
            logger.notice("interlock armed again: its probe is back down", metadata: metadata(interlock))
        }
        for interlock in changes.probeMissing {
            logger.error("the controller lists no such probe: this interlock cannot act", metadata: metadata(interlock))
        }
    }

    /// Carries out the trips `judge` asks for, and reads again the held outlets it saw on, until
    /// cancelled: apart from the publishing, so that a plug that takes its time holds up no state.
    func run(_ context: IntegrationContext) async {
        while !Task.isCancelled {
            for (key, reason) in state.withLock({ $0.tripping }).sorted(by: { $0.key < $1.key }) {
                guard let interlock = interlocks.first(where: { $0.key == key }) else { continue }
                await trip(interlock, because: reason, context)
            }
            for key in state.withLock({ $0.seenOnWhileHeld }).sorted() {
                guard let interlock = interlocks.first(where: { $0.key == key }) else { continue }
                await noticeSwitchedOn(interlock, context)
            }
            await tripAsked.wait(atMost: .seconds(60), on: services.clock)
        }
    }

    /// Turns the outlet off if it is on, and saves the hold: the state to come back to after it.
    /// A failure leaves the interlock armed: the next reading tries again.
    private func trip(_ interlock: ReefInterlockConfiguration, because reason: OutletInterlock.TripReason, _ context: IntegrationContext) async {
        let value = services.state.read { $0.probe(named: interlock.probe)?.value }
        do {
            let outlet = try await control.resolve(interlock.outlet)
            try await context.inTurn(of: [outlet.outlet.id]) { () async throws(CommandError) in
                try await holdOff(outlet, for: interlock, because: reason, context)
            }
        } catch {
            let firstTime = state.withLock { state in
                state.tripping[interlock.key] = nil
                return state.failures.updateValue(("\(error)", services.clock.wallNow), forKey: interlock.key)?.error != "\(error)"
            }
            if firstTime {
                logger.error("interlock could not turn its outlet off; trying again at the next reading", metadata: metadata(interlock).merging(["error": "\(error)"]) { $1 })
            }
            return
        }
        switch reason {
        case .above:
            logger.warning("interlock tripped: outlet turned off", metadata: metadata(interlock).merging(["value": "\(value.map { "\($0)" } ?? "none")"]) { $1 })
        case .probeLost:
            logger.warning("interlock tripped: its probe is lost (failing or stale), outlet turned off until a fresh reading is back down", metadata: metadata(interlock))
        }
        context.publishEvent("interlock_tripped", [
            "interlock": .string(interlock.key), "probe": .string(interlock.probe), "value": value.map(JSONValue.number) ?? .null,
            "above": .number(interlock.rule.above), "outlet": .string(interlock.outlet), "reason": .string(reason.rawValue),
        ])
        services.state.changed.signal()
    }

    /// In the outlet's turn: off if it is on, the hold saved, the interlock tripped.
    private func holdOff(
        _ outlet: OutletStatus, for interlock: ReefInterlockConfiguration, because reason: OutletInterlock.TripReason, _ context: IntegrationContext
    ) async throws(CommandError) {
        let id = outlet.outlet.id
        let isOn: Bool
        do {
            isOn = try await services.upstream.call(.outlets) { try await $0.outletState(id) }.isOn
        } catch {
            throw ReefOutletControl.commandError(error, key: outlet.key)
        }
        if isOn, let failure = await control.switchOff(id) { throw failure }
        // A timed command's restore is taken over: it must not turn the outlet on while it is held.
        let timedRestore = ReefTopics.restoreTimer(outletID: id)
        let promised = context.timers.pending(key: timedRestore)?.restore["state"]
        let trippedAt = services.clock.wallNow
        try await context.timers.set(
            key: ReefTopics.interlockTimer(interlock.key),
            restore: [
                "state": promised ?? .string(isOn ? "on" : "off"), "outlet": .string(id),
                Self.trippedAt: .number(trippedAt.timeIntervalSince1970), Self.reason: .string(reason.rawValue),
            ],
            after: interlock.rule.minOff)
        if promised != nil { try await context.timers.cancel(key: timedRestore) }
        state.withLock { state in
            state.statuses[interlock.key] = Status(phase: .tripped, since: trippedAt, reason: reason)
            state.tripping[interlock.key] = nil
            state.failures[interlock.key] = nil
        }
    }

    /// The hold's timer fell due: the outlet comes back to its state before the trip once the
    /// probe is fresh and back down. - Returns: `false` to be asked again a little later (still held).
    func release(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        guard let key = ReefTopics.interlockKey(ofTimer: timer.key), let id = timer.restore["outlet"]?.stringValue,
              let on = timer.restore["state"]?.stringValue.flatMap(SwitchWord.parse)
        else {
            logger.error("a saved interlock hold makes no sense and is dropped", metadata: ["timer": "\(timer.key)"])
            return true
        }
        // An interlock no longer configured holds nothing: its outlet comes back at once.
        let interlock = interlocks.first { $0.key == key }
        let outcome = await context.inTurn(of: [id]) { () async -> Release in
            if let interlock {
                guard let status = state.withLock({ $0.statuses[key] }), status.phase == .tripped else { return .overridden }
                let probe = services.state.read { $0.probe(named: interlock.probe) }
                let next = interlock.rule.phase(value: probe?.value, readAt: probe?.readAt, failed: probe?.error != nil, now: services.clock.wallNow, in: .tripped)
                guard next == .armed else {
                    state.withLock { _ = $0.awaitingReading.insert(key) }
                    return .held
                }
            }
            if on {
                switch await control.switchBack(id, on: true) {
                case .done:
                    break
                case .gone(let error):
                    logger.error("an interlocked outlet could not be turned back on and never will be; its hold is dropped", metadata: ["outlet": "\(id)", "error": "\(error)"])
                case .failed(let error):
                    logger.warning("an interlocked outlet could not be turned back on yet; trying again", metadata: ["outlet": "\(id)", "error": "\(error)"])
                    return .held
                }
            }
            state.withLock { state in
                state.statuses[key] = interlock.map { _ in Status(phase: .armed, since: services.clock.wallNow) }
                state.awaitingReading.remove(key)
            }
            return .released
        }
        guard outcome == .released else { return outcome == .overridden }
        services.state.update { $0.completedRestores.append(timer) }
        guard let interlock else { return true }
        let value = services.state.read { $0.probe(named: interlock.probe)?.value }
        logger.notice("interlock released: outlet back as it was", metadata: metadata(interlock).merging(["state": "\(on ? "on" : "off")"]) { $1 })
        context.publishEvent("interlock_released", [
            "interlock": .string(key), "probe": .string(interlock.probe), "value": value.map(JSONValue.number) ?? .null,
            "outlet": .string(interlock.outlet), "state": .string(on ? "on" : "off"),
        ])
        return true
    }

    private enum Release {
        case released
        /// Not yet: asked again a little later.
        case held
        /// A user's command ended the hold meanwhile: nothing to do.
        case overridden
    }

    /// A user's command on `target`, in the outlet's turn (the command has it, unless the outlet
    /// list was not read yet when it came): a hold taken before it ends once it succeeded.
    /// - Returns: `command`'s answer, with `interlock` saying so when it did.
    func command(on target: String, context: IntegrationContext, _ command: () async throws(CommandError) -> JSONValue) async throws(CommandError) -> JSONValue {
        let id = try await control.resolve(target).outlet.id
        return try await context.inTurn(of: [id]) { () async throws(CommandError) in
            await overriding(try await command(), outletID: id, context: context)
        }
    }

    private func overriding(_ answer: JSONValue, outletID id: String, context: IntegrationContext) async -> JSONValue {
        var answer = answer
        for interlock in holders(of: id, timers: context.timers) {
            let text = await override(interlock, by: .command, context: context)
            if case .object(var fields) = answer {
                fields["interlock"] = .string("overridden: this command \(text)")
                answer = .object(fields)
            }
        }
        return answer
    }

    /// A reading saw the held outlet on: someone switched it on outside the bridge (the
    /// controller's own page or button). Read again in the outlet's turn, since that reading may
    /// have begun before the trip: if it is on, that person wins, as a command sent here would.
    private func noticeSwitchedOn(_ interlock: ReefInterlockConfiguration, _ context: IntegrationContext) async {
        state.withLock { _ = $0.seenOnWhileHeld.remove(interlock.key) }
        guard let id = context.timers.pending(key: ReefTopics.interlockTimer(interlock.key))?.restore["outlet"]?.stringValue else { return }
        await context.inTurn(of: [id]) { () async in
            guard holders(of: id, timers: context.timers).contains(where: { $0.key == interlock.key }),
                  (try? await services.upstream.call(.outlets) { try await $0.outletState(id) })?.isOn == true
            else { return }
            _ = await override(interlock, by: .outside, context: context)
        }
    }

    /// Who ended a hold, as `interlock_overridden` says.
    private enum Overrider: String {
        /// A command sent to the bridge (a scene's part too).
        case command
        /// The outlet was switched on without the bridge.
        case outside
    }

    /// Ends `interlock`'s hold: the interlock will not turn the outlet back on, and watches again
    /// once its probe is back down. - Returns: what the winner does, for the command's answer.
    private func override(_ interlock: ReefInterlockConfiguration, by overrider: Overrider, context: IntegrationContext) async -> String {
        do {
            try await context.timers.cancel(key: ReefTopics.interlockTimer(interlock.key))
        } catch {
            logger.error("an overridden interlock's hold could not be dropped", metadata: metadata(interlock).merging(["error": "\(error)"]) { $1 })
        }
        state.withLock { state in
            state.statuses[interlock.key] = Status(phase: .overridden, since: services.clock.wallNow)
            state.awaitingReading.remove(interlock.key)
        }
        let above = JSONValue.number(interlock.rule.above).encodedString()
        let rearm = JSONValue.number(((interlock.rule.above - interlock.rule.hysteresis) * 100).rounded() / 100).encodedString()
        switch overrider {
        case .command: logger.warning("a command overrides an interlock that held its outlet off", metadata: metadata(interlock))
        case .outside: logger.warning("the outlet was switched on outside the bridge while its interlock held it off: that wins, the hold ends", metadata: metadata(interlock))
        }
        context.publishEvent("interlock_overridden", [
            "interlock": .string(interlock.key), "probe": .string(interlock.probe), "outlet": .string(interlock.outlet),
            "by": .string(overrider.rawValue),
        ])
        services.state.changed.signal()
        return "wins over the interlock on \(interlock.probe) above \(above), which will not turn the outlet back on; "
            + "it watches again once \(interlock.probe) is at or below \(rearm)"
    }

    /// `interlock/<key>` for every interlock.
    func messages(pending: [PersistedTimer]) -> [(topic: String, message: StateMessage)] {
        let statuses = state.withLock { $0.statuses }
        return interlocks.compactMap { interlock in
            guard let status = statuses[interlock.key] else { return nil }
            let hold = status.phase == .tripped ? pending.first { $0.key == ReefTopics.interlockTimer(interlock.key) } : nil
            let payload: JSONValue = [
                "state": .string(status.phase.rawValue), "since": .string(status.since.iso8601),
                "probe": .string(interlock.probe), "outlet": .string(interlock.outlet), "above": .number(interlock.rule.above),
                "min_off": .number(Double(interlock.rule.minOff.components.seconds)),
                "release_at": hold.map { .string($0.dueAt.iso8601) } ?? .null,
                "reason": status.phase == .tripped ? status.reason.map { .string($0.rawValue) } ?? .null : .null,
                "on_probe_lost": .string(interlock.rule.onProbeLost.rawValue),
            ]
            return (ReefTopics.interlock(interlock.key), .json(payload))
        }
    }

    func metadata(_ interlock: ReefInterlockConfiguration) -> Logger.Metadata {
        ["interlock": "\(interlock.key)", "probe": "\(interlock.probe)", "outlet": "\(interlock.outlet)", "above": "\(interlock.rule.above)"]
    }
}
