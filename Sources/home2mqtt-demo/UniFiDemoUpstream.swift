import UniFiSimulator

/// A UniFi console simulator over HTTPS with a household's downtime rules (two ACL rules, IPv4
/// and MAC, a firewall policy, and a read-only rule) and Wi-Fi (a guest network with a captive
/// portal, for the page's guest card). The bridge pins its certificate.
struct UniFiDemoUpstream: DemoUpstream {
    func start() async throws -> any RunningDemoUpstream {
        let simulator = UniFiSimulator()
        simulator.addDowntimeExamples()
        simulator.addHouseholdWifi()
        try await simulator.start()
        return RunningUniFiSimulator(simulator: simulator)
    }
}

struct RunningUniFiSimulator: RunningDemoUpstream {
    let simulator: UniFiSimulator

    var configurationYAML: String {
        """
        unifi:
          poll_interval: 5
          controllers:
            - id: home
              url: \(simulator.controllerURL)
              api_key: sim-api-key
              tls_fingerprint: "\(simulator.certificate?.opensslFingerprint ?? "")"

        """
    }

    func banner(broker: DemoBrokerAddress) -> [String] {
        let publish = "mosquitto_pub -h \(broker.host) -p \(broker.port)"
        return [
            "UniFi console simulator (Integration API, HTTPS, key \"sim-api-key\"): \(simulator.controllerURL)",
            "Internet downtime for Emma on, back off after 60 s by itself:",
            "  \(publish) -t home/unifi/rule/downtime-emma/set -m '{\"enabled\":true,\"for\":60}'",
            "Every managed rule: mosquitto_sub -h \(broker.host) -p \(broker.port) -v -t 'home/unifi/#'",
            "A guest Wi-Fi voucher for a day, its code printed (the list on home/unifi/controller/home/vouchers has none):",
            "  home2mqtt voucher --host \(broker.host) --port \(broker.port) --for 1d --note Grandma",
            "  or: mosquitto_rr -h \(broker.host) -p \(broker.port) -t home/unifi/voucher/create -e home/unifi/voucher/create/response -m '{\"minutes\":1440,\"note\":\"Grandma\"}'",
        ]
    }

    func stop() async {
        await simulator.stop()
    }
}
