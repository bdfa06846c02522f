import BellasReefAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The core service: its health, the host info and the system usage (`metrics_interval`).
struct ReefCorePoller: Sendable {
    let services: ReefServices

    func poll() async {
        async let health: Bool = services.readHealth(.core)
        do {
            let info = try await services.upstream.call(.core) { try await $0.hostInfo() }
            let usage = try await services.upstream.call(.core) { try await $0.systemUsage() }
            services.state.update { snapshot in
                snapshot.hostInfo = info
                snapshot.systemUsage = usage
                snapshot.systemReadAt = services.clock.wallNow
            }
            services.answered(.core)
        } catch {
            services.failed(.core, error)
        }
        _ = await health
    }
}
