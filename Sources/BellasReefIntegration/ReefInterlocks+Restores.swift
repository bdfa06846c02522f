import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// What falls due on an outlet: a timed command's restore, a scene's, feed mode's end. It comes
/// in the outlet's turn, and the hold of an interlock that holds the outlet takes it over.
extension ReefInterlocks {
    /// A restore fell due (a timed command's, a scene's): not carried out while an interlock holds
    /// the outlet, nor in the middle of a trip. The hold takes it over: its release puts the outlet
    /// back to what the restore promised, not to the state the trip found.
    /// A command on the outlet that came first while it waited for its turn stands.
    func restoring(_ timer: PersistedTimer, context: IntegrationContext, _ restore: () async -> Bool) async -> Bool {
        guard let id = ReefTopics.outletID(ofRestoreTimer: timer.key) else { return await restore() }
        return await context.restoreInTurn(timer, of: [id]) {
            await restoring(outletID: id, to: timer.restore["state"], context: context, restore)
        }
    }

    /// The same for one outlet of a promise that holds several (the feed's end).
    func restoring(outletID id: String, to state: JSONValue?, context: IntegrationContext, _ restore: () async -> Bool) async -> Bool {
        let timers = context.timers
        return await context.inTurn(of: [id]) { () async -> Bool in
            let holders = holders(of: id, timers: timers)
            guard holders.isEmpty else {
                for interlock in holders { await takeOver(state, in: interlock, timers: timers) }
                logger.notice("a restore is left to the interlock that holds the outlet", metadata: ["outlet": "\(id)"])
                return true
            }
            return await restore()
        }
    }

    /// `body` in the outlet's turn, or `nil` when an interlock holds the outlet: feed mode leaves
    /// a held outlet to its hold (it is off already, and the release knows what comes back).
    func unlessHeld<T: Sendable>(outletID id: String, context: IntegrationContext, _ body: () async -> T) async -> T? {
        await context.inTurn(of: [id]) { () async -> T? in holders(of: id, timers: context.timers).isEmpty ? await body() : nil }
    }

    /// The hold of `interlock` releases to `state` from now on, at the time it was due.
    private func takeOver(_ state: JSONValue?, in interlock: ReefInterlockConfiguration, timers: IntegrationTimers) async {
        let key = ReefTopics.interlockTimer(interlock.key)
        guard let state, let hold = timers.pending(key: key), case .object(var restore) = hold.restore else { return }
        restore["state"] = state
        let left = Int64(max(1, hold.dueAt.timeIntervalSince(services.clock.wallNow).rounded(.up)))
        do {
            try await timers.set(key: key, restore: .object(restore), after: .seconds(left))
        } catch {
            logger.error("a restore could not be handed to the interlock's hold", metadata: metadata(interlock).merging(["error": "\(error)"]) { $1 })
        }
    }

    /// The tripped interlocks whose hold is on the outlet `id`.
    func holders(of id: String, timers: IntegrationTimers) -> [ReefInterlockConfiguration] {
        interlocks.filter { interlock in
            state.withLock({ $0.statuses[interlock.key]?.phase }) == .tripped
                && timers.pending(key: ReefTopics.interlockTimer(interlock.key))?.restore["outlet"]?.stringValue == id
        }
    }
}
