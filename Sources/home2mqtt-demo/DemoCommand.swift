import ArgumentParser
import BridgeComposition
import BridgeCore
import LoopbackSocket
import Logging
import ServiceLifecycle
import WebPage

/// `home2mqtt-demo`: the bridge working in one command, with nothing to own. Simulated
/// appliances on loopback, a broker (the one already running, or a mosquitto of its own), and
/// the bridge wired to both, until Ctrl-C stops all of them. An executable of its own, so that
/// the simulators (and the web framework they run on) are not in the binary that ships.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home2mqtt-demo",
        abstract: "Run the bridge against simulated appliances on this machine, until Ctrl-C.",
        discussion: "Uses the MQTT broker at --mqtt-host/--mqtt-port if one answers there, otherwise starts mosquitto on that port (loopback only) from broker-config/demo.conf."
    )

    @Option(help: "The broker's host. The demo starts its own only on loopback.")
    var mqttHost = "127.0.0.1"

    @Option(help: "The broker's port: used if a broker answers there, else the demo's own mosquitto listens there.")
    var mqttPort = 1883

    @Option(help: "The mosquitto configuration for the demo's own broker (default: broker-config/demo.conf of this checkout).")
    var brokerConfig: String?

    @Option(help: "The bridge's log level (logs go to standard error).")
    var logLevel: BridgeConfiguration.LogLevel = .warning

    @Option(help: "The port of the bridge's page on 127.0.0.1 (default: a free one, printed).")
    var webPort: Int?

    func validate() throws {
        guard (1...65535).contains(mqttPort) else { throw ValidationError("--mqtt-port must be 1...65535") }
        if let webPort, !(1...65535).contains(webPort) { throw ValidationError("--web-port must be 1...65535") }
    }

    func run() async throws {
        let logControl = LogControl(level: Logger.Level(logLevel))
        LogSetup.bootstrap(control: logControl)
        let logger = Logger(label: "home2mqtt-demo")
        let broker = try DemoBroker.choose(host: mqttHost, port: mqttPort, brokerConfig: brokerConfig)
        var upstreams: [any RunningDemoUpstream] = []
        do {
            for upstream in demoUpstreams {
                upstreams.append(try await upstream.start())
            }
            let page = DemoPage(port: try webPort ?? BoundLoopbackSocket().port)
            let yaml = DemoConfiguration.yaml(broker: broker.address, upstreams: upstreams, logLevel: logLevel, page: page)
            let setup = try BridgeSetup(configuration: DemoConfiguration.load(yaml), logger: logger)
            let activity = PageActivity(baseTopic: DemoConfiguration.baseTopic)
            let bridge = try Bridge(
                configuration: setup.configuration, integrations: setup.integrations, logger: logger, logControl: logControl,
                observer: activity)
            let routes = PageSetup.routes(
                setup.configuration.bridge.web, health: setup.configuration.bridge.health, activity: activity, bridge: bridge, logger: logger)
            let listener = HTTPListener(host: "127.0.0.1", port: page.port, logger: logger) { request in
                await routes.answer(request) ?? .full(.text(.notFound, "not found"))
            }
            let announcer = DemoAnnouncer(broker: broker.address, upstreams: upstreams, page: page, logger: logger)

            // A graceful shutdown stops services in reverse order: the announcer, the bridge (which
            // says `offline` and logs out of the simulators), the simulators, and the broker last.
            var services: [any Service] = broker.service.map { [$0] } ?? []
            services += upstreams.map { $0 as any Service }
            services += [bridge, listener, announcer] as [any Service]
            var configuration = ServiceGroupConfiguration(
                services: services.map { .init(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
            // A part stuck in shutdown (a bridge still waiting for its broker) is cancelled, so Ctrl-C always ends the demo.
            configuration.maximumGracefulShutdownDuration = .seconds(10)
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            for upstream in upstreams { await upstream.stop() }
            await broker.service?.stop()
            throw error
        }
        say("demo stopped")
    }
}
