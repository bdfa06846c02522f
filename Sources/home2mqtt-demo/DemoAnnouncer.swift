import BridgeComposition
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging
import MQTT
import ServiceLifecycle

/// Watches the broker the way a user would, and once the bridge says `online` prints what to
/// type, then `demo ready` (the stable line scripts and tests wait for).
struct DemoAnnouncer: Service {
    let broker: DemoBrokerAddress
    let upstreams: [any RunningDemoUpstream]
    let page: DemoPage
    let logger: Logger

    private var state: String { BridgeTopics(base: DemoConfiguration.baseTopic).state }

    func run() async throws {
        let client = try MQTTClient(
            configuration: MQTTConfiguration(clientID: "home2mqtt-demo-watch-\(getpid())", host: broker.host, port: broker.port),
            logger: logger
        )
        let state = self.state
        let online = try await cancelWhenGracefulShutdown { [broker] in
            do {
                // The demo's own broker may take a moment to start; a refusal (a password needed) fails at once.
                try await client.connect(timeout: .seconds(15))
            } catch where Task.isCancelled {
                return false  // Ctrl-C before the broker answered: no error to report.
            } catch {
                throw DemoError("""
                    cannot use the MQTT broker at \(broker.host):\(broker.port): \(error)
                    If it needs a password, let the demo start a broker of its own on a free port: --mqtt-port 1884
                    """)
            }
            try await client.subscribe(state, qos: .atLeastOnce)
            for await message in client.messages where message.topic == state && message.payloadString == BridgeTopics.online {
                return true
            }
            return false
        }
        if online {
            say(banner)
            say("demo ready")
        } else if !Task.isShuttingDownGracefully && !Task.isCancelled {
            await client.disconnect()
            throw DemoError("lost the MQTT broker at \(broker.host):\(broker.port) before the bridge came online")
        }
        try? await gracefulShutdown()
        say("stopping the demo…")
        await client.disconnect()
    }

    private var banner: String {
        let address = "-h \(broker.host) -p \(broker.port)"
        let whose = broker.startedByDemo
            ? "a mosquitto started by the demo (broker-config/demo.conf, anonymous, loopback only)"
            : "the broker that was already running there"
        return ([
            "",
            "home2mqtt-demo: the bridge is online at \(broker.host):\(broker.port), \(whose).",
            "Watch everything it publishes:",
            "  mosquitto_sub \(address) -v -t '\(DemoConfiguration.baseTopic)/#'",
            "Or open the bridge's page (its controls' password: \(DemoPage.password)):",
            "  \(page.url)",
        ] + upstreams.flatMap { $0.banner(broker: broker) } + [
            "A scene (scenes: in the configuration): the tablet's internet rule on and the tablet in Strict, for an hour, then each back as it was:",
            "  mosquitto_pub \(address) -t \(DemoConfiguration.baseTopic)/scene/bedtime/set -m '{\"state\":\"on\",\"for\":3600}'",
            "  home2mqtt scene Bedtime on --for 1h --port \(broker.port)    home2mqtt scene Bedtime off --port \(broker.port)",
            "Ctrl-C stops the demo and everything it started.",
            "",
        ]).joined(separator: "\n")
    }
}
