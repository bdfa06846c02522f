import BellasReefIntegration
import BellasReefSimulator

/// A simulated Bella's Reef controller: the core, temperature and smart-outlet services with the
/// observed controller's return pump, heater, disabled plug and two probes.
struct ReefDemoUpstream: DemoUpstream {
    func start() async throws -> any RunningDemoUpstream {
        let simulator = BellasReefSimulator()
        try await simulator.start()
        return RunningReefSimulator(simulator: simulator)
    }
}

struct RunningReefSimulator: RunningDemoUpstream {
    let simulator: BellasReefSimulator
    static let credentials = (username: "bellas", password: "reefrocks")

    var configurationYAML: String {
        // Short polls so that a change made on the simulator shows within seconds.
        """
        reef:
          url: \(simulator.baseURL(.core))
          temperature_url: \(simulator.baseURL(.temperature))
          outlets_url: \(simulator.baseURL(.outlets))
          username: \(Self.credentials.username)
          password: \(Self.credentials.password)
          metrics_interval: 10
          temperature_interval: 5
          outlets_interval: 2
          feed:
            outlets: ["Return Pump", "Heater"]
            default_minutes: 1
          guard:
            - probe: Display Tank
              low: 24
              high: 27
          interlocks:
            - probe: Display Tank
              above: 27.5
              outlet: Heater
              min_off: 600

        """
    }

    func banner(broker: DemoBrokerAddress) -> [String] {
        let publish = "mosquitto_pub -h \(broker.host) -p \(broker.port)"
        return [
            "Bella's Reef simulator (user \"\(Self.credentials.username)\", password \"\(Self.credentials.password)\"):",
            "  core         \(simulator.baseURL(.core))",
            "  temperature  \(simulator.baseURL(.temperature))",
            "  outlets      \(simulator.baseURL(.outlets))",
            "Switch the heater on, then the return pump off for 60 s (feeding time; it comes back on by itself):",
            "  \(publish) -t home/reef/\(ReefTopics.outletSet("heater")) -m ON",
            "  \(publish) -t home/reef/\(ReefTopics.outletSet("return-pump")) -m '{\"state\":\"off\",\"for\":60}'",
            "  home2mqtt outlet return-pump off --for 1m --port \(broker.port)",
            "Feed mode: the return pump and the heater off for 2 minutes, each back as it was (or end it now):",
            "  \(publish) -t home/reef/\(ReefTopics.feedStart) -m 120",
            "  home2mqtt feed --for 2m --port \(broker.port)    home2mqtt feed --cancel --port \(broker.port)",
            "The tank's guard (the display tank between 24 and 27 °C) and the heater's interlock (off above 27.5 °C):",
            "  mosquitto_sub -h \(broker.host) -p \(broker.port) -v -t 'home/reef/alarm/#' -t 'home/reef/interlock/#'",
        ]
    }

    func stop() async {
        await simulator.stop()
    }
}
