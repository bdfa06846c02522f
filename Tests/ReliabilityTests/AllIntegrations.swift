import BellasReefIntegration
import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Logging
import MQTT
import MQTTTestSupport
import PiHoleIntegration
import PiHoleSimulator
import PiHoleTestSupport
import SimulatorSupport
import UniFiIntegration
import UniFiSimulator
import UniFiTestSupport

/// One bridge with all three integrations against their simulators and a real broker.
struct AllIntegrations: Sendable {
    let piHole: PiHoleSimulator
    let unifi: UniFiSimulator
    let reef: BellasReefSimulator

    /// Writes an upstream could have received: each must stay zero for an invalid command.
    var upstreamWrites: [String: Int] {
        [
            "pihole blocking": piHole.requests.filter { $0.method == "POST" && $0.path.hasPrefix("/api/dns/blocking") }.count,
            "pihole domains": piHole.requests.filter { $0.method != "GET" && $0.path.hasPrefix("/api/domains") }.count,
            "pihole groups": piHole.groupPutCount,
            "pihole actions": piHole.requests.filter { $0.path.hasPrefix("/api/action") }.count,
            "pihole queries": piHole.requests.filter { $0.path.hasPrefix("/api/queries") }.count,
            "unifi rules": unifi.requestCount(method: "PUT"),
            "unifi vouchers": unifi.requests.filter { $0.method != "GET" && $0.path.contains("hotspot/vouchers") }.count,
            "reef outlets": reef.requests(.outlets).filter { $0.method == "POST" }.count,
        ]
    }

    /// One upstream served over HTTPS with `certificate`, and how the bridge trusts it: a
    /// configuration key (`tls_fingerprint`, `ca_file`) and its value.
    struct HTTPS: Sendable {
        let upstream: Upstream
        let certificate: ServedCertificate
        let trust: (key: String, value: String)

        /// The trust setting of `upstream`'s configuration; nil for the others.
        func trust(for upstream: Upstream) -> [String: String]? {
            upstream == self.upstream ? [trust.key: trust.value] : nil
        }
    }

    /// Runs the bridge (logging through `logger`) for the length of `body`, on `broker` (a fresh
    /// one unless given) with `brokerYAML` (the bridge's credentials); `configureObserver` sets
    /// up the clients that watch it. The Pi-hole and the Reef speak plain HTTP and the UniFi
    /// console HTTPS with a pinned certificate of its own, unless `https` says otherwise for one.
    static func run(
        broker: TestBroker? = nil, brokerYAML: String = "", logger: Logger = testLogger("all"), https: HTTPS? = nil,
        observer configureObserver: (inout MQTTConfiguration) -> Void = { _ in },
        _ body: (AllIntegrations, Observer) async throws -> Void
    ) async throws {
        try await UniFiFixture.withSimulator(broker: broker) { unifiFixture in
            try await ReefFixture.withLastingSimulator { reefFixture in
                let piHole = PiHoleSimulator(hostName: "pi-main")
                try await piHole.start(certificate: https?.upstream == .pihole ? https?.certificate : nil)
                defer { Task { await piHole.stop() } }
                if let https, https.upstream == .unifi { try await unifiFixture.simulator.restart(serving: https.certificate) }
                if let https, https.upstream == .reef { try await reefFixture.simulator.restart(serving: https.certificate) }
                let yaml = brokerYAML + PiHoleFixture.yaml(["main": piHole], instanceSettings: https?.trust(for: .pihole) ?? [:])
                    + unifiFixture.yaml(trust: https?.trust(for: .unifi))
                    + ReefFixture.yaml(reefFixture.simulator, settings: https?.trust(for: .reef) ?? [:])
                let configuration = try testConfiguration(broker: unifiFixture.broker, yaml: yaml)
                let environment = IntegrationEnvironment(logger: logger)
                let factories: [any IntegrationFactory] = [PiHoleIntegrationFactory(), UniFiIntegrationFactory(), ReefIntegrationFactory()]
                var integrations: [any Integration] = []
                for factory in factories {
                    if let made = try factory.make(section: configuration.section(factory.name), environment: environment) { integrations.append(made) }
                }
                let all = AllIntegrations(piHole: piHole, unifi: unifiFixture.simulator, reef: reefFixture.simulator)
                try await withRunningBridge(
                    broker: unifiFixture.broker, yaml: yaml, integrations: integrations, logger: logger, observer: configureObserver
                ) { _ in
                    try await Observer.watching(unifiFixture.broker, subscribe: ["home/#"], configure: configureObserver) { observer in
                        _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
                        _ = try await observer.latest("home/unifi/rules") { $0["downtime-emma"] != nil }
                        _ = try await observer.latest("home/reef/outlets") { $0["heater"] != nil }
                        try await body(all, observer)
                    }
                }
            }
        }
    }
}
