import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import Testing

/// `home/bridge/request/reload` and SIGHUP on the real process: the file is read again and what
/// changed is applied without a restart.
@Suite struct ReloadTests {
    /// A broker, two Pi-holes, and `home2mqtt run` on a file that names `first` only.
    private static func withBridge(
        _ body: (_ config: String, _ write: ([String: PiHoleSimulator], String) throws -> Void, _ simulators: [String: PiHoleSimulator],
                 _ bridge: BridgeProcess, _ observer: Observer) async throws -> Void
    ) async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let simulators = ["first": PiHoleSimulator(hostName: "pi-first"), "second": PiHoleSimulator(hostName: "pi-second")]
        for simulator in simulators.values { try await simulator.start() }
        let config = try BridgeProcess.writeConfig("")
        let write = { (chosen: [String: PiHoleSimulator], extra: String) throws in
            var yaml = "mqtt:\n  port: \(broker.port)\n\(extra)pihole:\n  poll_interval: 1\n  instances:\n"
            for (id, simulator) in chosen.sorted(by: { $0.key < $1.key }) {
                yaml += "    - id: \(id)\n      url: \(simulator.baseURL)\n      password: correct horse\n"
            }
            try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        }
        try write(["first": simulators["first"]!], "")
        let bridge = try BridgeProcess(["run", "--config", config])
        defer { bridge.child.terminate(signal: SIGKILL) }
        let observer = try await Observer(broker, subscribe: ["home/#", "homeassistant/#"])
        _ = try await observer.latest("home/pihole/first", timeout: .seconds(20)) { $0["available"] == true }
        do {
            try await body(config, write, simulators, bridge, observer)
        } catch {
            await observer.disconnect()
            for simulator in simulators.values { await simulator.stop() }
            throw error
        }
        bridge.signal(SIGTERM)
        let result = try await bridge.finish()
        #expect(result.status == 0, "\(result.stderr)")
        await observer.disconnect()
        for simulator in simulators.values { await simulator.stop() }
    }

    @Test func aReloadAddsAndRemovesPiHolesAndRefusesABrokenFile() async throws {
        try await Self.withBridge { config, write, simulators, bridge, observer in
            let first = simulators["first"]!, second = simulators["second"]!
            try write(simulators, "")
            let added = try await observer.command("home/bridge/request/reload")
            #expect(added["status"] == "ok", "\(added)")
            #expect(added["data"]?["changed"] == ["pihole"])
            #expect(added["data"]?["not_applied"] == [])
            _ = try await observer.latest("home/pihole/second", timeout: .seconds(20)) { $0["available"] == true }
            _ = try await observer.recorder.first(timeout: .seconds(10)) { $0.topic.contains("pihole_second") && $0.topic.hasSuffix("/config") }
            let event = try await observer.recorder.first { $0.topic == "home/bridge/event" }
            #expect(JSONValue.parse(event.payload)?["data"]?["changed"] == ["pihole"])
            // The Pi-hole that stays keeps its entities in Home Assistant (and with them what the user set there).
            #expect(observer.recorder.messages.contains { $0.topic.contains("pihole_first") && !$0.payload.isEmpty })
            #expect(!observer.recorder.messages.contains { $0.topic.contains("pihole_first") && $0.payload.isEmpty })

            try write(["second": second], "")
            let removed = try await observer.command("home/bridge/request/reload")
            #expect(removed["status"] == "ok", "\(removed)")
            // The removed Pi-hole's session is logged out, and its retained state cleared.
            try await waitUntil("the first Pi-hole's session logged out") { first.activeSessionCount == 0 }
            // Once the Pi-holes left have published their state, along with what else the first had.
            let isFirsts = { (topic: String) in topic.hasPrefix("home/pihole/first") || topic.contains("pihole_first") }
            try await waitUntil("every topic of the first Pi-hole cleared", timeout: .seconds(10)) {
                var last: [String: [UInt8]] = [:]
                for message in observer.recorder.messages where isFirsts(message.topic) { last[message.topic] = message.payload }
                return last["home/pihole/first"] != nil && last.values.allSatisfy(\.isEmpty)
            }
            let late = try await Observer(host: observer.client.configuration.host, port: observer.client.configuration.port)
            try await Task.sleep(for: .milliseconds(500))
            let left = late.recorder.messages.filter { isFirsts($0.topic) }
            #expect(left.isEmpty, "nothing retained is left of it: \(left.map(\.topic))")
            await late.disconnect()

            // A mistake is refused with its key, and the running configuration carries on.
            try "mqtt:\n  keepalive: 60\npihole:\n  poll_interval: 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            let refused = try await observer.command("home/bridge/request/reload")
            #expect(refused["status"] == "error")
            #expect(refused["error"]?.stringValue?.contains("pihole.poll_interval") == true)
            #expect(refused["error"]?.stringValue?.contains("running one is kept") == true)
            #expect(try await observer.command("home/pihole/pause", "30")["status"] == "ok")
            #expect(second.blocking == .disabled)
            #expect(bridge.child.isRunning)

            // The broker connection only changes at a restart: said so.
            try write(["second": second], "  keepalive: 60\n")
            let waiting = try await observer.command("home/bridge/request/reload")
            #expect(waiting["data"]?["not_applied"] == ["mqtt.keepalive"], "\(waiting)")
            #expect(waiting["data"]?["unchanged"] == ["pihole"])

            // Without its section the integration is removed: logged out, its state and entities cleared.
            try "mqtt:\n  port: \(observer.client.configuration.port)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let gone = try await observer.command("home/bridge/request/reload")
            #expect(gone["data"]?["removed"] == ["pihole"], "\(gone)")
            #expect(second.activeSessionCount == 0)
            let discovered = Set(observer.recorder.messages.filter { $0.topic.contains("/home2mqtt_home/pihole") }.map(\.topic))
            #expect(!discovered.isEmpty)
            var last: [String: [UInt8]] = [:]
            let commands: Set = ["home/pihole/pause", "home/pihole/pause/response"]
            for message in observer.recorder.messages where message.topic.hasPrefix("home/pihole") && !commands.contains(message.topic)
                || discovered.contains(message.topic) {
                last[message.topic] = message.payload
            }
            #expect(last.filter { !$0.value.isEmpty }.keys.sorted() == [], "every Pi-hole topic and entity cleared")
            #expect(try await observer.latest("home/bridge/info") { $0["integrations"] == [] }["integrations"] == [])
        }
    }

    @Test func sighupReloadsAsTheRequestDoes() async throws {
        try await Self.withBridge { config, write, simulators, bridge, observer in
            try write(simulators, "bridge:\n  log_level: debug\n  log_format: json\n")
            bridge.signal(SIGHUP)
            _ = try await observer.latest("home/pihole/second", timeout: .seconds(20)) { $0["available"] == true }
            let event = try await observer.recorder.first { $0.topic == "home/bridge/event" }
            #expect(JSONValue.parse(event.payload)?["type"] == "configuration_reloaded")
            #expect(try await observer.command("home/bridge/request/log_level")["data"] == ["level": "debug"])
            #expect(bridge.output.contains(#""msg":"configuration reloaded""#), "the log format applied at once")

            try "pihole:\n  instances: nope\n".write(toFile: config, atomically: true, encoding: .utf8)
            bridge.signal(SIGHUP)
            try await waitUntil("the refusal logged") { bridge.output.contains("configuration not reloaded") }
            #expect(bridge.output.contains("pihole.instances"))
            // The refusal is an error, and so on home/bridge/logging too.
            let logged = try await observer.recorder.first { $0.topic == "home/bridge/logging" && $0.payloadString?.contains("pihole.instances") == true }
            #expect(JSONValue.parse(logged.payload)?["level"] == "error")
            #expect(JSONValue.parse(logged.payload)?["logger"] == "home2mqtt")
            #expect(bridge.child.isRunning)
            #expect(try await observer.command("home/pihole/second/pause", "30")["status"] == "ok")
            #expect(simulators["second"]!.blocking == .disabled)
        }
    }

    /// A bridge whose broker is away serves all the same (its integrations act on their own): SIGHUP
    /// reloads it, and SIGTERM stops it.
    @Test func sighupWhileTheBrokerIsAwayReloadsAndSigtermStillStops() async throws {
        try await LoopbackPort.withRefusing { nobody in
            let bridge = try BridgeProcess(["run"], environment: ["HOME2MQTT_MQTT__PORT": String(nobody), "HOME2MQTT_BRIDGE__LOG_LEVEL": "debug"])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await waitUntil("a connect attempt failed", timeout: .seconds(20)) { bridge.output.contains("MQTT connect attempt failed") }
            bridge.signal(SIGHUP)
            try await waitUntil("the reload made") { bridge.output.contains("configuration reloaded") }
            #expect(bridge.child.isRunning)
            bridge.signal(SIGTERM)
            let result = try await bridge.finish(timeout: .seconds(10))
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// Bella's Reef keeps its published state itself: a changed section still clears what the
    /// controller no longer serves (here the temperature service, turned off).
    @Test func aChangedReefClearsWhatItNoLongerPublishes() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            let config = try BridgeProcess.writeConfig("mqtt:\n  port: \(fixture.broker.port)\n" + ReefFixture.yaml(fixture.simulator))
            let bridge = try BridgeProcess(["run", "--config", config])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await Observer.watching(fixture.broker, subscribe: ["home/#"]) { observer in
                _ = try await observer.latest("home/reef/temperature/availability", timeout: .seconds(20)) { $0 == "online" }
                let probeTopics = { Set(observer.recorder.messages.map(\.topic).filter { $0.hasPrefix("home/reef/probe/") }) }
                try await waitUntil("the probes published") { !probeTopics().isEmpty }
                let probes = probeTopics()
                try ("mqtt:\n  port: \(fixture.broker.port)\n" + ReefFixture.yaml(fixture.simulator, settings: ["temperature_url": "false"]))
                    .write(toFile: config, atomically: true, encoding: .utf8)
                let answer = try await observer.command("home/bridge/request/reload")
                #expect(answer["data"]?["changed"] == ["reef"], "\(answer)")
                try await waitUntil("the temperature topics cleared", timeout: .seconds(10)) {
                    (probes.union(["home/reef/temperature/availability"])).allSatisfy { topic in
                        observer.recorder.messages.last { $0.topic == topic }?.payload.isEmpty == true
                    }
                }
                _ = try await observer.latest("home/reef/core/availability") { $0 == "online" }
            }
            bridge.signal(SIGTERM)
            #expect(try await bridge.finish().status == 0)
        }
    }
}
