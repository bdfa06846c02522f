#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOConcurrencyHelpers
import SimulatorSupport

/// An in-process Bella's Reef controller: the core, temperature and smart-outlet services,
/// each on its own loopback port, answering as the real ones did in `observed-responses.json`
/// (form login, JWT with `exp`, plain-text 500 on the core without a token, bare-number
/// readings, disabled outlets hidden, 307 without the trailing slash, coded outlet errors).
/// Records every request per service and counts logins and refreshes.
public final class BellasReefSimulator: Sendable {
    private let state: NIOLockedValueBox<ReefSimulatorState>
    private let host: String
    private let listeners: [Service: SimulatorListener<ReefResponder>]

    public init(
        options: Options = Options(),
        outlets: [SimulatedOutlet] = SimulatedOutlet.observed,
        probes: [SimulatedProbe] = SimulatedProbe.observed,
        host: String = "127.0.0.1",
        logger: Logger? = nil
    ) {
        let state = NIOLockedValueBox(ReefSimulatorState(options: options, outlets: outlets, probes: probes))
        var quiet = Logger(label: "BellasReefSimulator")
        quiet.logLevel = .critical
        var listeners: [Service: SimulatorListener<ReefResponder>] = [:]
        for service in Service.allCases {
            listeners[service] = SimulatorListener(
                name: "Bella's Reef simulator (\(service))", responder: ReefResponder(service: service, state: state),
                logger: logger ?? quiet)
        }
        self.host = host
        self.state = state
        self.listeners = listeners
    }

    // MARK: - Lifecycle

    /// Starts the three listeners, each on a free port: over HTTPS with `certificate` (one for
    /// the three, as the controller's own web server has), plain HTTP without.
    public func start(certificate: ServedCertificate? = nil) async throws {
        for service in Service.allCases {
            try await listener(service).start(host: host, certificate: certificate)
            recordBaseURL(service)
        }
    }

    /// Restarts the three services on their ports serving `certificate`, as the controller given
    /// a new certificate does (their open connections are closed). Outlets, probes and tokens are kept.
    public func restart(serving certificate: ServedCertificate) async throws {
        for service in Service.allCases {
            try await listener(service).restart(serving: certificate)
            recordBaseURL(service)
        }
    }

    /// Where the outlet service's redirects point.
    private func recordBaseURL(_ service: Service) {
        let baseURL = baseURL(service)
        state.withLockedValue { $0.baseURLs[service] = baseURL }
    }

    /// Stops every listener; outlets, probes and tokens are kept.
    public func stop() async {
        for service in Service.allCases { await listener(service).stop() }
    }

    public func port(_ service: Service) -> Int { listener(service).port }
    /// `http://127.0.0.1:PORT` of `service` (`https://` when serving a certificate).
    public func baseURL(_ service: Service) -> String { listener(service).baseURL }

    private func listener(_ service: Service) -> SimulatorListener<ReefResponder> {
        guard let listener = listeners[service] else { preconditionFailure("every service has a listener") }
        return listener
    }

    // MARK: - Observation

    /// The requests `service` received, in order: the newest ``RequestLog/defaultCapacity``.
    public func requests(_ service: Service) -> [RecordedRequest] {
        state.withLockedValue { $0.requests[service]?.requests ?? [] }
    }

    public func clearRequests() {
        state.withLockedValue { $0.requests.removeAll() }
    }

    /// `POST /api/auth/login` attempts (good or not).
    public var loginCount: Int { state.withLockedValue { $0.loginCount } }
    /// `POST /api/auth/refresh` attempts.
    public var refreshCount: Int { state.withLockedValue { $0.refreshCount } }

    public var outlets: [SimulatedOutlet] { state.withLockedValue { $0.outlets } }
    public func outlet(_ id: String) -> SimulatedOutlet? {
        state.withLockedValue { state in state.outletIndex(id).map { state.outlets[$0] } }
    }
    public var probes: [SimulatedProbe] { state.withLockedValue { $0.probes } }

    // MARK: - Control

    /// Sets a fault on `service` (`nil` clears it). `.down` stops its listener; clearing it
    /// listens again on the same port.
    public func setFault(_ fault: Fault?, on service: Service) async throws {
        state.withLockedValue { $0.faults[service] = fault }
        if fault == .down {
            await listener(service).stop()
        } else if !listener(service).isRunning {
            try await listener(service).restart()
        }
    }

    /// Every token issued so far is refused from now on (as after their `exp`).
    public func expireAllTokens() {
        state.withLockedValue { $0.accessTokens.removeAll() }
    }

    /// Changes the password the core accepts.
    public func setPassword(_ password: String) {
        state.withLockedValue { $0.options.password = password }
    }

    /// Adds an outlet, or replaces the one with the same id.
    public func addOutlet(_ outlet: SimulatedOutlet) {
        state.withLockedValue { state in
            if let index = state.outletIndex(outlet.id) {
                state.outlets[index] = outlet
            } else {
                state.outlets.append(outlet)
            }
        }
    }

    public func removeOutlet(_ id: String) {
        state.withLockedValue { $0.outlets.removeAll { $0.id == id.lowercased() } }
    }

    /// Changes an outlet in place (its plug condition, slowness, on/off, enabled).
    public func updateOutlet(_ id: String, _ change: @Sendable (inout SimulatedOutlet) -> Void) {
        state.withLockedValue { state in
            if let index = state.outletIndex(id) { change(&state.outlets[index]) }
        }
    }

    /// Adds a probe, or replaces the one with the same hardware address.
    public func addProbe(_ probe: SimulatedProbe) {
        state.withLockedValue { state in
            state.probes.removeAll { $0.address == probe.address }
            state.probes.append(probe)
        }
    }

    public func removeProbe(address: String) {
        state.withLockedValue { $0.probes.removeAll { $0.address == address } }
    }

    /// Changes a probe in place (its temperature, whether reading it fails).
    public func updateProbe(address: String, _ change: @Sendable (inout SimulatedProbe) -> Void) {
        state.withLockedValue { state in
            if let index = state.probes.firstIndex(where: { $0.address == address }) { change(&state.probes[index]) }
        }
    }
}
