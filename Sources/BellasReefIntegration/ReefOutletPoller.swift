import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The smart-outlet service: the outlet list (disabled ones included), then each enabled
/// outlet's state, every read on its own: one slow or dead plug delays no other outlet, no
/// probe and no metric (`outlets_interval`).
final class ReefOutletPoller: Sendable {
    let services: ReefServices
    /// Outlets whose state read is still out: the next poll leaves them be rather than pile up.
    private let reading = Mutex<Set<String>>([])

    init(services: ReefServices) {
        self.services = services
    }

    /// Lists the outlets and starts a state read for each enabled one in `group`.
    func poll(in group: inout DiscardingTaskGroup) async {
        async let health: Bool = services.readHealth(.outlets)
        guard let outlets = await list() else {
            _ = await health
            return
        }
        for outlet in outlets where outlet.enabled {
            let idle = reading.withLock { $0.insert(outlet.id).inserted }
            guard idle else { continue }
            group.addTask {
                await self.readState(outlet.id)
                self.reading.withLock { _ = $0.remove(outlet.id) }
            }
        }
        _ = await health
    }

    /// Reads the outlet list into the snapshot. - Returns: `nil` when the service did not answer.
    @discardableResult
    func list() async -> [BellasReefOutlet]? {
        do {
            let outlets = try await services.upstream.call(.outlets) { try await $0.outlets(includeDisabled: true) }
            services.state.update { $0.replaceOutlets(outlets) }
            services.answered(.outlets)
            return outlets
        } catch {
            services.failed(.outlets, error)
            return nil
        }
    }

    /// Reads one outlet's state. A plug that has not answered after `ReefConfiguration.slowPlug`
    /// is shown as not responding at once; the read itself goes on until the request timeout.
    @discardableResult
    func readState(_ id: String) async -> Result<BellasReefOutletState, any Error> {
        let started = ContinuousClock.now
        let result = await withSlowNotice(after: ReefConfiguration.slowPlug, { [services] in
            services.state.update { $0.outlets[id]?.markSlow() }
        }) { () -> Result<BellasReefOutletState, any Error> in
            do {
                return .success(try await services.upstream.call(.outlets) { try await $0.outletState(id) })
            } catch {
                return .failure(error)
            }
        }
        let elapsed = ContinuousClock.now - started
        services.state.update { $0.outlets[id]?.record(result, took: elapsed, at: services.clock.wallNow) }
        return result
    }
}
