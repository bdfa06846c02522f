#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import Logging
import NIOConcurrencyHelpers
import SimulatorSupport
import TLSTestSupport

/// An in-process UniFi Network Integration API (spec 10.5.66 plus what its users report):
/// sites, ACL rules and firewall policies with pages and filters, a PUT as strict as the real
/// controller's, the console proxy's 401, over HTTPS with a certificate made at start.
/// Records every request for tests. Changes "behind the bridge's back" and faults are in
/// `UniFiSimulator+Control.swift`.
public final class UniFiSimulator: Sendable {
    let core: NIOLockedValueBox<UniFiSimulatorState>
    private let listener: SimulatorListener<UniFiSimulatorResponder>
    /// The self-signed certificate made at the first HTTPS start, what the fixtures pin.
    private let madeCertificate = NIOLockedValueBox<TestCertificate?>(nil)

    /// The one site every simulator starts with ("Default", reference `default`).
    public static let defaultSiteID = "88f7af54-98f8-306a-a1c7-c9349722b1f6"

    public init(apiKey: String = "sim-api-key", applicationVersion: String = "10.5.66", logger: Logger? = nil) {
        var state = UniFiSimulatorState(apiKey: apiKey, applicationVersion: applicationVersion)
        state.sites = [["id": .string(Self.defaultSiteID), "internalReference": "default", "name": "Default"]]
        state.rules[Self.defaultSiteID] = [:]
        let core = NIOLockedValueBox(state)
        self.core = core
        var quiet = Logger(label: "UniFiSimulator")
        quiet.logLevel = .critical
        listener = SimulatorListener(name: "UniFiSimulator", responder: UniFiSimulatorResponder(core: core), logger: logger ?? quiet)
    }

    deinit {
        listener.shutDownWithoutWaiting()
        madeCertificate.withLockedValue { $0?.remove() }
    }

    /// Starts listening on `host` (port 0: the port of the previous start, or a free one the first
    /// time). HTTPS serves the certificate served before, or ``certificate``, made at the first start.
    public func start(scheme: Scheme = .https, host: String = "127.0.0.1", port: Int = 0) async throws {
        var served: ServedCertificate?
        if scheme == .https {
            served = listener.certificate
            if served == nil { served = try await madeServedCertificate() }
        }
        try await listener.start(host: host, port: port, certificate: served)
    }

    /// Stops listening and waits until the server has ended: the console is down (connects are
    /// refused) until `start()`. Data is kept.
    public func stop() async {
        await listener.stop()
    }

    /// Restarts on the same port serving `certificate`, as a console given a new certificate (or
    /// a firmware update that made one) does: its open connections are closed. Data is kept.
    public func restart(serving certificate: ServedCertificate) async throws {
        try await listener.restart(serving: certificate)
    }

    public var port: Int { listener.port }
    /// The console's URL, e.g. `https://127.0.0.1:PORT`, what a bridge is configured with.
    public var controllerURL: String { listener.baseURL }
    /// The self-signed certificate made at the first HTTPS start (nil before it), what the
    /// fixtures pin; ``restart(serving:)`` may serve another meanwhile.
    public var certificate: TestCertificate? { madeCertificate.withLockedValue { $0 } }

    private func madeServedCertificate() async throws -> ServedCertificate {
        let certificate: TestCertificate
        if let stored = madeCertificate.withLockedValue({ $0 }) {
            certificate = stored
        } else {
            let made = try await TestCertificate.generate(commonName: "UniFi Simulator")
            // Two starts at once may each make one: the first stored is served, the other removed.
            certificate = madeCertificate.withLockedValue { stored in
                if let stored {
                    made.remove()
                    return stored
                }
                stored = made
                return made
            }
        }
        return ServedCertificate(certificatePath: certificate.certificatePath, privateKeyPath: certificate.privateKeyPath)
    }
}
