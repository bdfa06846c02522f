import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

@Suite struct PiHoleStateTests {
    @Test func publishesInstanceAndAggregateState() async throws {
        try await PiHoleFixture.run { fixture, observer in
            // The version is read just after the first blocking state: wait for both.
            let main = try await observer.latest("home/pihole/main") { $0["available"] == true && $0["version"] != .null }
            #expect(main["blocking"] == "enabled")
            #expect(main["host"] == "pi-main")
            #expect(main["version"] == "v6.1.4")
            #expect(main["timer"] == .null)
            _ = try await observer.latest("home/pihole") { $0["blocking"] == "enabled" }  // the aggregate follows the Pi-hole's own
            #expect(try await observer.latest("home/pihole/main/availability") == "online")
            #expect(try await observer.latest("home/pihole/availability") == "online")
        }
    }

    @Test func pauseThenAutomaticResumeIsSeenOnTheStateTopic() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            // Long enough that a loaded machine still sees the pause before it ends.
            let response = try await observer.command("home/pihole/pause", "5")
            #expect(response["status"] == "ok", "\(response)")
            #expect(response["data"]?["main"]?["blocking"] == "disabled")
            #expect(fixture["main"].blocking == .disabled)
            let paused = try await observer.latest("home/pihole/main") { $0["blocking"] == "disabled" }
            #expect(paused["resumes_at"]?.stringValue != nil)
            _ = try await observer.latest("home/pihole") { $0["blocking"] == "disabled" }
            // The Pi-hole resumes by itself; the bridge notices within about a second, not a poll later.
            _ = try await observer.latest("home/pihole/main", timeout: .seconds(15)) { $0["blocking"] == "enabled" && $0["timer"] == .null }
            _ = try await observer.latest("home/pihole") { $0["blocking"] == "enabled" && $0["resumes_at"] == .null }
            // The Pi-hole held the timer: the bridge never re-enabled blocking itself.
            let posts = fixture.calls("main", "/api/dns/blocking").filter { $0.method == "POST" }
            #expect(posts.map(\.body).allSatisfy { $0.contains("false") && $0.contains("\"timer\":5") })
            #expect(posts.count == 1)
        }
    }

    @Test func pausePayloadShapes() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            #expect(try await observer.command("home/pihole/pause")["data"]?["main"]?["timer"] == 10)
            #expect(try await observer.command("home/pihole/main/pause", "{\"seconds\":45}")["data"]?["timer"] == 45)
            for bad in ["abc", "0", "-5", "1.5", "{\"secs\":3}", "999999"] {
                let response = try await observer.command("home/pihole/pause", bad)
                #expect(response["status"] == "error", "\(bad) → \(response)")
            }
            #expect(fixture.calls("main", "/api/dns/blocking").filter { $0.method == "POST" }.count == 2)
        }
    }

    @Test func resumeSwitchAndRefresh() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            #expect(try await observer.command("home/pihole/main/blocking/set", "OFF")["status"] == "ok")
            let off = try await observer.latest("home/pihole/main") { $0["blocking"] == "disabled" }
            #expect(off["timer"] == .null)
            #expect(try await observer.command("home/pihole/resume")["status"] == "ok")
            _ = try await observer.latest("home/pihole/main") { $0["blocking"] == "enabled" }
            fixture["main"].setBlocking(enabled: false, timer: nil)
            #expect(try await observer.command("home/pihole/refresh")["data"]?["main"]?["blocking"] == "disabled")
            let maybe = try await observer.command("home/pihole/main/blocking/set", "maybe")
            #expect(maybe["status"] == "error" && maybe["code"] == "invalid_payload")
            let nosuch = try await observer.command("home/pihole/nosuch/pause")
            #expect(nosuch["error"] == "unknown Pi-hole 'nosuch' (configured: main)" && nosuch["code"] == "unknown_target")
        }
    }

    @Test func oneMessagePausesEveryPiHole() async throws {
        try await PiHoleFixture.run(ids: ["main", "backup"]) { fixture, observer in
            _ = try await observer.latest("home/pihole") { $0["instances"]?["backup"] == "enabled" && $0["instances"]?["main"] == "enabled" }
            #expect(try await observer.command("home/pihole/pause", "60")["status"] == "ok")
            #expect(fixture["main"].blocking == .disabled)
            #expect(fixture["backup"].blocking == .disabled)
            _ = try await observer.latest("home/pihole") { $0["blocking"] == "disabled" }
            #expect(try await observer.command("home/pihole/backup/resume")["status"] == "ok")
            #expect(fixture["main"].blocking == .disabled)
            _ = try await observer.latest("home/pihole") { $0["blocking"] == "mixed" }
        }
    }

    /// A pause publishes the state it changed (its Pi-hole's and the aggregate's) itself: with an
    /// hour between polls, nothing else would.
    @Test func aPauseIsPublishedWithoutAPoll() async throws {
        try await PiHoleFixture.run(ids: ["main", "backup"], pollInterval: 3600) { fixture, observer in
            _ = try await observer.latest("home/pihole") { $0["instances"]?["backup"] == "enabled" && $0["instances"]?["main"] == "enabled" }
            let reads = { ["main", "backup"].map { fixture.calls($0, "/api/dns/blocking").filter { $0.method == "GET" }.count }.reduce(0, +) }
            let readsBefore = reads()
            #expect(try await observer.command("home/pihole/main/pause", "600")["status"] == "ok")
            let main = try await observer.latest("home/pihole/main") { $0["blocking"] == "disabled" }
            #expect(main["timer"]?.numberValue.map { $0 > 590 && $0 <= 600 } == true, "\(main)")
            let aggregate = try await observer.latest("home/pihole") { $0["blocking"] == "mixed" }
            #expect(aggregate["instances"]?["backup"] == "enabled")
            #expect(try await observer.latest("home/pihole/backup")["blocking"] == "enabled")
            #expect(reads() == readsBefore)
        }
    }

    /// A command's answer carries the state it changed: the bridge does not read every Pi-hole
    /// again after each one (a burst of commands to one of 20 Pi-holes made 21 requests each).
    @Test func commandsMakeNoReadsOfTheirOwn() async throws {
        try await PiHoleFixture.run(ids: ["main", "backup"]) { fixture, observer in
            _ = try await observer.latest("home/pihole") { $0["instances"]?["backup"] == "enabled" && $0["instances"]?["main"] == "enabled" }
            let reads = { ["main", "backup"].map { fixture.calls($0, "/api/dns/blocking").filter { $0.method == "GET" }.count }.reduce(0, +) }
            let readsBefore = reads()
            let started = ContinuousClock.now
            for _ in 0..<10 { #expect(try await observer.command("home/pihole/main/pause", "60")["status"] == "ok") }
            // Polls still come, one per Pi-hole a second (poll_interval 1), and one more each
            // about now: what the commands' time allows, far fewer than 10 reads of both.
            let seconds = Int((ContinuousClock.now - started).components.seconds) + 2
            #expect(reads() - readsBefore <= 2 * seconds, "\(reads() - readsBefore) reads in about \(seconds) s")
        }
    }

    @Test func discoveryDeclaresTheEntities() async throws {
        try await PiHoleFixture.run(ids: ["main", "backup"]) { fixture, observer in
            for (component, object) in [
                ("switch", "pihole_main_blocking"), ("button", "pihole_main_pause_30"), ("button", "pihole_main_pause_300"),
                ("sensor", "pihole_backup_resumes_at"), ("binary_sensor", "pihole_backup_connectivity"),
                ("button", "pihole_all_pause"), ("binary_sensor", "bridge_connection"),
            ] {
                let topic = "homeassistant/\(component)/home2mqtt_home/\(object)/config"
                _ = try await observer.recorder.first(topic: topic)
            }
            let blocking = try await observer.latest("homeassistant/switch/home2mqtt_home/pihole_main_blocking/config")
            #expect(blocking["command_topic"] == "home/pihole/main/blocking/set")
            #expect(blocking["availability"] == [["topic": "home/bridge/state"], ["topic": "home/pihole/main/availability"]])
            // Pressing a preset button sends its payload to the pause topic: it works end to end.
            let pause = try await observer.latest("homeassistant/button/home2mqtt_home/pihole_main_pause_30/config")
            let response = try await observer.command(pause["command_topic"]!.stringValue!, pause["payload_press"]!.stringValue!)
            #expect(response["data"]?["timer"] == 30)
        }
    }
}
