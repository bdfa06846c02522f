import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleIntegration
import PiHoleSimulator

/// A broker, Pi-hole simulators and an in-process bridge wired to them, for running the
/// companion commands (the real binary) against.
struct CompanionFixture {
    let broker: TestBroker
    let simulators: [String: PiHoleSimulator]

    subscript(id: String) -> PiHoleSimulator { simulators[id]! }

    /// `--port P`, for a companion command to reach this broker.
    var brokerArguments: [String] { ["--host", broker.host, "--port", String(broker.port)] }

    /// Runs `body` once the bridge is online and every Pi-hole's state has been published.
    static func run(ids: [String] = ["main"], _ body: (CompanionFixture, Observer) async throws -> Void) async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        var simulators: [String: PiHoleSimulator] = [:]
        for id in ids {
            let simulator = PiHoleSimulator(hostName: "pi-\(id)")
            try await simulator.start()
            simulators[id] = simulator
        }
        let fixture = CompanionFixture(broker: broker, simulators: simulators)
        var yaml = "pihole:\n  poll_interval: 1\n  instances:\n"
        for (id, simulator) in simulators.sorted(by: { $0.key < $1.key }) {
            yaml += "    - id: \(id)\n      url: \(simulator.baseURL)\n      password: correct horse\n"
        }
        do {
            let configuration = try testConfiguration(broker: broker, yaml: yaml)
            let integration = try PiHoleIntegrationFactory().make(
                section: configuration.section("pihole"), environment: IntegrationEnvironment(logger: testLogger("pihole")))
            try await withRunningBridge(broker: broker, yaml: yaml, integrations: [integration!]) {
                let observer = try await Observer(broker, subscribe: ["home/#"])
                do {
                    for id in ids { _ = try await observer.latest("home/pihole/\(id)") { $0["available"] == true } }
                    try await body(fixture, observer)
                } catch {
                    await observer.disconnect()
                    throw error
                }
                await observer.disconnect()
            }
        } catch {
            for simulator in simulators.values { await simulator.stop() }
            throw error
        }
        for simulator in simulators.values { await simulator.stop() }
    }
}

/// Runs the built `home2mqtt` with `arguments` and waits for it to exit.
func companion(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(30))
    async throws -> (status: Int32, stdout: String, stderr: String)
{
    try await BridgeProcess(arguments, environment: environment).finish(timeout: timeout)
}
