import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleTestSupport
import Testing

/// The companion commands as a user runs them: the real binary against a real broker and an
/// in-process bridge wired to Pi-hole simulators. What counts is the exit status, what was
/// printed, and what reached the Pi-hole.
@Suite struct CompanionTests {
    // MARK: status

    @Test func statusPrintsATableAndExitsZeroWhenOnline() async throws {
        try await PiHoleFixture.runOnline(ids: ["backup", "main"]) { fixture, observer in
            _ = try await observer.latest("home/pihole/main") { $0["version"] != .null }
            let result = try await companion(["status"] + fixture.brokerArguments)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("bridge") == true && lines.first?.hasSuffix("online") == true, "\(result.stdout)")
            #expect(lines.contains { $0.hasPrefix("version") && $0.contains(Bridge.version) })
            #expect(lines.contains { $0.hasPrefix("pihole") && $0.contains("online") && $0.contains("blocking enabled") })
            #expect(lines.contains { $0.contains("ID") && $0.contains("AVAILABILITY") && $0.contains("BLOCKING") && $0.contains("HOST") })
            #expect(lines.contains { $0.contains("main") && $0.contains("online") && $0.contains("enabled") && $0.contains("pi-main") && $0.contains("v6.1.4") })
            #expect(lines.contains { $0.contains("backup") && $0.contains("pi-backup") })
        }
    }

    @Test func statusJSONIsOneObjectByTopic() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let result = try await companion(["status", "--json"] + fixture.brokerArguments)
            #expect(result.status == 0, "\(result.stderr)")
            let state = try #require(JSONValue.parse(Array(result.stdout.utf8)), "\(result.stdout)")
            #expect(state["home/bridge/state"] == "online")
            #expect(state["home/bridge/info"]?["integrations"] == ["pihole"])
            #expect(state["home/pihole/main"]?["blocking"] == "enabled")
            #expect(state["home/pihole/main/availability"] == "online")
            #expect(state["home/pihole"]?["blocking"] == "enabled")
        }
    }

    @Test func statusExitsTwoWithoutABridge() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let started = ContinuousClock.now
        let result = try await companion(["status", "--port", String(broker.port)])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no bridge state on home/bridge/state"), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(8), "no state should not wait for the whole timeout")
    }

    @Test func statusExitsTwoWhenTheBridgeSaysOffline() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let publisher = try await Observer(broker, subscribe: ["home/bridge/state"])
        try await publisher.send("home/bridge/state", "offline", retain: true)
        try await publisher.send("home/pihole/main", #"{"id":"main","blocking":"disabled","timer":12.5}"#, retain: true)
        await publisher.disconnect()
        let result = try await companion(["status", "--port", String(broker.port)])
        #expect(result.status == 2)
        #expect(result.stdout.contains("offline"), "\(result.stdout)")
        #expect(result.stdout.contains("13 s"), "the last known pause is still shown: \(result.stdout)")
        #expect(result.stderr.contains("the bridge is offline"), "\(result.stderr)")
        let json = try await companion(["status", "--json", "--port", String(broker.port)])
        #expect(json.status == 2)
        #expect(JSONValue.parse(Array(json.stdout.utf8))?["home/bridge/state"] == "offline", "\(json.stdout)")
    }

    @Test func noBrokerIsExitTwoWithAClearMessage() async throws {
        try await LoopbackPort.withRefusing { port in
            let result = try await companion(["status", "--port", String(port), "--timeout", "1"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("cannot connect to the MQTT broker at 127.0.0.1:\(port)"), "\(result.stderr)")
        }
    }

    @Test func badConnectionSettingsAreConfigurationErrors() async throws {
        let result = try await companion(["status", "--port", "0"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("mqtt.port"), "\(result.stderr)")
    }

    // MARK: pause and resume

    @Test func pauseOneInstanceForSeconds() async throws {
        try await PiHoleFixture.runOnline(ids: ["backup", "main"]) { fixture, _ in
            let result = try await companion(["pause", "30", "--pihole", "main"] + fixture.brokerArguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("paused blocking on main for 30 s, resumes at "), "\(result.stdout)")
            #expect(fixture["main"].blocking == .disabled)
            #expect(fixture["backup"].blocking == .enabled)
            let posts = fixture["main"].requests.filter { $0.method == "POST" && $0.path == "/api/dns/blocking" }
            #expect(posts.count == 1)
            #expect(posts.first?.body.contains("\"timer\":30") == true, "\(posts)")
        }
    }

    @Test func pauseEverythingThenResumeWithTheBrokerFromTheEnvironment() async throws {
        try await PiHoleFixture.runOnline(ids: ["backup", "main"]) { fixture, _ in
            let environment = ["HOME2MQTT_MQTT__PORT": String(fixture.broker.port)]
            let paused = try await companion(["pause", "120"], environment: environment)
            #expect(paused.status == 0, "\(paused.stderr)")
            let lines = paused.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("paused blocking on backup for 120 s") == true, "\(paused.stdout)")
            #expect(fixture["main"].blocking == .disabled && fixture["backup"].blocking == .disabled)

            let resumed = try await companion(["resume", "--pihole", "main", "--json"], environment: environment)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let response = try #require(JSONValue.parse(Array(resumed.stdout.utf8)), "\(resumed.stdout)")
            #expect(response["status"] == "ok")
            #expect(response["data"]?["blocking"] == "enabled")
            #expect(fixture["main"].blocking == .enabled)
            #expect(fixture["backup"].blocking == .disabled)
        }
    }

    @Test func anUnknownInstanceIsTheBridgesUnknownTargetExitFour() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let result = try await companion(["resume", "--pihole", "attic"] + fixture.brokerArguments)
            #expect(result.status == 4)
            #expect(result.stderr.contains("unknown Pi-hole 'attic'") && result.stderr.hasSuffix("(unknown_target)\n"), "\(result.stderr)")
        }
    }

    // MARK: allow and deny

    @Test func allowThenADuplicateIsAConflictWithThePiHolesMessage() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let added = try await companion(["allow", "School.Example"] + fixture.brokerArguments)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout == "added school.example to the allow list on main\n")
            #expect(fixture["main"].domains("allow", kind: "exact") == ["school.example"])

            let again = try await companion(["allow", "school.example"] + fixture.brokerArguments)
            #expect(again.status == 6)
            #expect(again.stderr.contains("UNIQUE constraint failed"), "\(again.stderr)")
            #expect(again.stdout.isEmpty)

            let removed = try await companion(["allow", "--remove", "school.example", "--pihole", "main"] + fixture.brokerArguments)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout == "removed school.example from the allow list on main\n")
            #expect(fixture["main"].domains("allow", kind: "exact").isEmpty)
        }
    }

    @Test func denyARegexWithAComment() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let result = try await companion(["deny", "--regex", #"(^|\.)ads\."#, "--comment", "no ads"] + fixture.brokerArguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#"added regex '(^|\.)ads\.' to the deny list on main"#), "\(result.stdout)")
            #expect(fixture["main"].domains("deny", kind: "regex") == [#"(^|\.)ads\."#])
            let post = fixture["main"].requests.first { $0.method == "POST" && $0.path.hasPrefix("/api/domains/deny/regex") }
            #expect(post?.body.contains("no ads") == true)
        }
    }

    // MARK: nobody answers

    @Test func noAnswerIsExitTwoAfterTheTimeout() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        // A bridge that says it is online but never answers.
        let fake = try await Observer(broker, subscribe: ["home/pihole/#"])
        try await fake.send("home/bridge/state", "online", retain: true)
        let started = ContinuousClock.now
        let result = try await companion(["pause", "10", "--timeout", "1", "--port", String(broker.port)])
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 2)
        #expect(result.stderr.contains("no answer from the bridge within 1 s"), "\(result.stderr)")
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(6), "\(elapsed)")
        // The command did go out, with a reply topic under home/replies/ and correlation data.
        let command = try await fake.recorder.first(timeout: .seconds(5)) { $0.topic == "home/pihole/pause" }
        #expect(command.payloadString == "10")
        #expect(command.properties.responseTopic?.hasPrefix("home/replies/home2mqtt-cli-") == true)
        #expect(command.properties.correlationData?.isEmpty == false)
        await fake.disconnect()
    }

    @Test func aCommandFailsFastWhenTheBridgeIsOffline() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let publisher = try await Observer(broker, subscribe: ["home/bridge/state"])
        try await publisher.send("home/bridge/state", "offline", retain: true)
        await publisher.disconnect()
        let started = ContinuousClock.now
        let result = try await companion(["resume", "--port", String(broker.port)])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the bridge is offline"), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    // MARK: configuration

    @Test func aConfigFileLendsOnlyItsBrokerSettings() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            // The bridge's file may name secrets the client cannot read: they are never read.
            let file = try BridgeProcess.writeConfig("""
                mqtt:
                  port: \(fixture.broker.port)
                  client_id: home2mqtt
                pihole:
                  instances:
                    - id: main
                      url: http://127.0.0.1:9
                      password_file: /nonexistent/pihole-password
                """)
            let result = try await companion(["status", "--config", file])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}
