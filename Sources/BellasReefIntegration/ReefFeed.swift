import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Feed mode: the configured outlets (a return pump, a skimmer) off for a while, then each back
/// to the state it had before: at the feed's end, or staged, `restore_after` later (a skimmer
/// once the sump has settled), through a restore timer of the outlet's own. One persisted promise
/// for all of them: a second feed before the first ends extends it and keeps the first's promise
/// (an outlet still waiting for its staged return included); `cancel` ends the feed at once.
///
/// An outlet an interlock holds is the interlock's: a feed neither switches it nor promises it
/// back, and a feed's end that falls during a hold hands the outlet's state to the hold.
struct ReefFeed: Sendable {
    let configuration: ReefFeedConfiguration
    let services: ReefServices
    let control: ReefOutletControl
    let interlocks: ReefInterlocks
    let logger: Logger

    func start(for duration: Duration?, context: IntegrationContext) async throws(CommandError) -> JSONValue {
        let timers = context.timers
        let duration = duration ?? configuration.defaultDuration
        let outlets = try await resolveAll()
        let pending = timers.pending(key: ReefTopics.feedTimer)
        // The states before the feed: those the first feed saved, else as read now. An outlet
        // whose state cannot be read is not switched (it could not be put back as it was).
        var before: [String: JSONValue] = pending?.restore["outlets"]?.objectValue ?? [:]
        var results: [String: JSONValue] = [:]
        var failures = 0
        // Still off from an earlier feed, waiting for its staged return: its state before that
        // feed comes back after this one (the stage's timer goes once this feed's promise is kept).
        var takenOver: [String] = []
        for (outlet, _) in outlets where before[outlet.outlet.id] == nil {
            if let staged = timers.pending(key: ReefTopics.restoreTimer(outletID: outlet.outlet.id)), staged.restore[Self.stagedBy] == Self.feedMark {
                before[outlet.outlet.id] = staged.restore["state"]
                takenOver.append(outlet.outlet.id)
            }
        }
        for (outlet, _) in outlets {
            let id = outlet.outlet.id
            let result = await interlocks.unlessHeld(outletID: id, context: context) { () async -> JSONValue in
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
        let delays = outlets.filter { $0.restoreAfter > .zero }.map { ($0.outlet.outlet.id, JSONValue.number(Double($0.restoreAfter.components.seconds))) }
        let restore: JSONValue = ["outlets": .object(before), "after": .object(Dictionary(delays) { first, _ in first })]
        try await timers.set(key: ReefTopics.feedTimer, restore: restore, after: duration)
        for id in takenOver {
            do {
                try await timers.cancel(key: ReefTopics.restoreTimer(outletID: id))
            } catch {
                logger.warning("an outlet's staged return from an earlier feed could not be dropped: it may come back during this feed", metadata: ["outlet": "\(id)"])
            }
        }
        services.state.changed.signal()
        return [
            "active": true, "until": timers.pending(key: ReefTopics.feedTimer).map { .string($0.dueAt.iso8601) } ?? .null,
            "outlets": .object(results),
        ]
    }

    /// Ends the feed now, as its time would: the outlets back, the staged ones after their delay.
    func cancel(context: IntegrationContext) async throws(CommandError) -> JSONValue {
        let timers = context.timers
        guard let pending = timers.pending(key: ReefTopics.feedTimer) else { throw CommandError("no feed is running", code: .conflict) }
        let (failed, staged) = await restoreEach(pending, context: context)
        guard failed.isEmpty else {
            throw CommandError("not every feed outlet could be restored (\(failed.joined(separator: ", "))); the feed's end will try again", code: .upstreamUnavailable)
        }
        try await timers.cancel(key: ReefTopics.feedTimer)
        services.state.changed.signal()
        // By the outlets' keys, as the start's answer names them (the promise keeps ids).
        let (restored, backAt) = services.state.read { snapshot in
            let key = { (id: String) in snapshot.outlets[id]?.key ?? id }
            return ((pending.restore["outlets"]?.objectValue ?? [:]).keys.filter { staged[$0] == nil }.map(key).sorted(),
                    staged.map { (key($0.key), JSONValue.string($0.value.iso8601)) })
        }
        return ["active": false, "restored": .array(restored.map(JSONValue.string)), "back_at": .object(Dictionary(backAt) { first, _ in first })]
    }

    /// The feed's end, in the feed's turn: a feed started (or cancelled) while it waited for that
    /// turn replaced (or kept) its promise, and the outlets stay as that command left them.
    /// - Returns: `false` to try again later (an outlet could not be switched).
    func restore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        await context.restoreInTurn(timer, of: [ReefTopics.feed]) {
            let failed = await restoreEach(timer, context: context).failed
            if failed.isEmpty {
                logger.info("feed ended: outlets restored")
                services.state.update { $0.completedRestores.append(timer) }
                return true
            }
            logger.warning("feed ended, but outlets could not be restored yet; trying again", metadata: ["outlets": "\(failed)"])
            return false
        }
    }

    /// Sets each saved outlet to its saved state (or hands it to the interlock that holds the
    /// outlet); an outlet gone from the controller is skipped. A staged one gets a restore timer
    /// of its own, `restore_after` from now, unless a timed command's promise is pending for it:
    /// then it is back now, as it was before staging, and that promise stands.
    /// - Returns: the ids that could not be switched, or whose timer could not be saved; when each
    /// staged one comes back, by id.
    private func restoreEach(_ timer: PersistedTimer, context: IntegrationContext) async -> (failed: [String], staged: [String: Date]) {
        let timers = context.timers
        var failed: [String] = []
        var staged: [String: Date] = [:]
        let delays = timer.restore["after"]?.objectValue ?? [:]
        for (id, state) in (timer.restore["outlets"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let on = state.stringValue.flatMap(SwitchWord.parse) else { continue }
            let stage = ReefTopics.restoreTimer(outletID: id)
            if let seconds = delays[id]?.numberValue, seconds > 0 {
                switch timers.pending(key: stage) {
                case nil:
                    let restore: JSONValue = ["state": state, Self.stagedBy: Self.feedMark]
                    do {
                        try await timers.set(key: stage, restore: restore, after: .seconds(seconds))
                        staged[id] = timers.pending(key: stage)?.dueAt
                    } catch {
                        failed.append(id)
                    }
                    continue
                case let set? where set.restore[Self.stagedBy] == Self.feedMark:
                    // Set by this end's earlier try (another outlet failed then): it stands.
                    staged[id] = set.dueAt
                    continue
                default:
                    break
                }
            }
            let restored = await interlocks.restoring(outletID: id, to: state, context: context) { () async -> Bool in
                switch await control.switchBack(id, on: on) {
                case .done: return true
                case .gone:
                    logger.warning("a feed outlet is gone from the controller or disabled; not restored", metadata: ["outlet": "\(id)"])
                    return true
                case .failed: return false
                }
            }
            if !restored { failed.append(id) }
        }
        return (failed, staged)
    }

    /// In an outlet's restore timer set by a feed's end: a second feed takes it over.
    static let stagedBy = "by"
    static let feedMark: JSONValue = "feed"

    /// Every configured feed outlet, by name, key or id, with its staged delay; one the controller
    /// does not list stops the feed before anything is switched.
    private func resolveAll() async throws(CommandError) -> [(outlet: OutletStatus, restoreAfter: Duration)] {
        var found: [(outlet: OutletStatus, restoreAfter: Duration)] = []
        for outlet in configuration.outlets {
            found.append((try await control.resolve(outlet.name), outlet.restoreAfter))
        }
        return found
    }
}
