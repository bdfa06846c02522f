import BellasReefAPI
import BridgeCore

/// What every poller and command works with: the controller's client and the shared snapshot,
/// and how a service's answers and failures are recorded in both the state and the metrics.
struct ReefServices: Sendable {
    let upstream: ReefUpstream
    let state: ReefState
    /// What readings are stamped with and every wait runs on: the bridge's.
    let clock: any BridgeClock

    func answered(_ service: BellasReefService) {
        state.serviceAnswered(service)
        upstream.recordAvailability(service, true)
    }

    func failed(_ service: BellasReefService, _ error: any Error) {
        state.serviceFailed(service, error)
        upstream.recordAvailability(service, false)
    }

    /// Reads `/health` of `service` (no token needed). Descriptive: a failure leaves the last
    /// answer in the health topic and, alone, never makes the service unavailable.
    /// - Returns: whether it answered.
    @discardableResult
    func readHealth(_ service: BellasReefService) async -> Bool {
        guard let health = try? await upstream.call(service, { try await $0.health(service) }) else { return false }
        state.update { $0.services[service, default: ServiceStatus()].health = health }
        return true
    }
}
