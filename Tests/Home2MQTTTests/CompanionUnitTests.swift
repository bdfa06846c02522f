import ArgumentParser
import BridgeCore
import Foundation
@testable import home2mqtt
import Testing

/// The pure parts of the companion commands: arguments → topic and payload, answers → text,
/// retained state → table, flags and environment → broker settings.
@Suite struct CompanionUnitTests {
    let topics = BridgeTopics(base: "home")

    @Test func pauseMapsSecondsAndInstanceToTopicAndPayload() throws {
        #expect(try PauseCommand.parse(["30", "--pihole", "main"]).command(topics) == BridgeCommand(topic: "home/pihole/main/pause", payload: "30"))
        #expect(try PauseCommand.parse([]).command(topics) == BridgeCommand(topic: "home/pihole/pause", payload: ""))
        #expect(try PauseCommand.parse(["5", "--base-topic", "house"]).command(BridgeTopics(base: "house")).topic == "house/pihole/pause")
        #expect(throws: (any Error).self) { try PauseCommand.parse(["soon"]) }
        #expect(throws: (any Error).self) { try PauseCommand.parse(["--pihole", "a/b"]) }
    }

    @Test func outletMapsActionAndDuration() throws {
        #expect(try OutletCommand.parse(["heater", "on"]).command(topics) == BridgeCommand(topic: "home/reef/outlet/heater/set", payload: "ON"))
        let timed = try OutletCommand.parse(["return-pump", "off", "--for", "10m"]).command(topics)
        #expect(timed.topic == "home/reef/outlet/return-pump/set")
        #expect(JSONValue.parse(Array(timed.payload.utf8)) == ["state": "off", "for": 600])
        #expect(throws: (any Error).self) { try OutletCommand.parse(["heater", "sideways"]) }
        #expect(throws: (any Error).self) { try OutletCommand.parse(["heater", "on", "--for", "soon"]) }
        #expect(throws: (any Error).self) { try OutletCommand.parse(["a/b", "on"]) }
        let answer: JSONValue = ["name": "Return Pump", "state": "off", "restore_state": "on", "restore_at": "2026-11-23T14:13:12Z"]
        let utc = TimeZone(identifier: "UTC")!
        let now = try Date("2026-11-23T14:03:12Z", strategy: .iso8601)
        #expect(try OutletCommand.parse(["return-pump", "off"]).describe(answer, timeZone: utc, now: now) == ["Return Pump is off, back on at 14:13:12"])
    }

    @Test func feedMapsDurationAndCancel() throws {
        #expect(try FeedCommand.parse([]).command(topics) == BridgeCommand(topic: "home/reef/feed/start", payload: ""))
        let timed = try FeedCommand.parse(["--for", "15m"]).command(topics)
        #expect(timed.topic == "home/reef/feed/start")
        #expect(JSONValue.parse(Array(timed.payload.utf8)) == ["for": 900])
        #expect(try FeedCommand.parse(["--cancel"]).command(topics) == BridgeCommand(topic: "home/reef/feed/cancel", payload: ""))
        #expect(throws: (any Error).self) { try FeedCommand.parse(["--cancel", "--for", "10m"]) }
        let utc = TimeZone(identifier: "UTC")!
        let now = try Date("2026-11-23T14:03:12Z", strategy: .iso8601)
        let answer: JSONValue = ["active": true, "until": "2026-11-23T14:13:12Z", "outlets": ["return-pump": "off", "skimmer": "failed: timeout"]]
        #expect(try FeedCommand.parse([]).describe(answer, timeZone: utc, now: now) == [
            "feeding until 14:13:12", "  return-pump: off", "  skimmer: failed: timeout",
        ])
        let staged: JSONValue = ["active": false, "restored": ["return-pump"], "back_at": ["skimmer": "2026-11-23T14:08:12Z"]]
        #expect(try FeedCommand.parse(["--cancel"]).describe(staged, timeZone: utc, now: now) == [
            "feeding ended: the feed outlets are back as they were, but", "  skimmer: back at 14:08:12",
        ])
    }

    @Test func sceneMapsNameActionAndDuration() throws {
        #expect(try SceneSwitchCommand.parse(["Quiet evening", "on"]).command(topics) == BridgeCommand(topic: "home/scene/quiet-evening/set", payload: "ON"))
        #expect(try SceneSwitchCommand.parse(["quiet-evening", "off"]).command(topics) == BridgeCommand(topic: "home/scene/quiet-evening/set", payload: "OFF"))
        let timed = try SceneSwitchCommand.parse(["quiet-evening", "on", "--for", "1h"]).command(topics)
        #expect(JSONValue.parse(Array(timed.payload.utf8)) == ["state": "on", "for": 3600])
        #expect(throws: (any Error).self) { try SceneSwitchCommand.parse(["quiet-evening", "off", "--for", "1h"]) }
        #expect(throws: (any Error).self) { try SceneSwitchCommand.parse(["a/b", "on"]) }
        let utc = TimeZone(identifier: "UTC")!
        let now = try Date("2026-11-23T14:03:12Z", strategy: .iso8601)
        let answer: JSONValue = [
            "state": "on", "until": "2026-11-23T15:03:12Z",
            "parts": [["kind": "unifi_rule", "target": "Downtime Emma", "status": "ok"], ["kind": "pihole_group", "target": "kids", "status": "error", "error": "timed out"]],
        ]
        #expect(try SceneSwitchCommand.parse(["Quiet evening", "on"]).describe(answer, timeZone: utc, now: now) == [
            "Quiet evening is on until 15:03:12", "  unifi_rule Downtime Emma: ok", "  pihole_group kids: timed out",
        ])
    }

    @Test func resumeMapsTheInstance() throws {
        #expect(try ResumeCommand.parse([]).command(topics) == BridgeCommand(topic: "home/pihole/resume", payload: ""))
        #expect(try ResumeCommand.parse(["--pihole", "backup"]).command(topics) == BridgeCommand(topic: "home/pihole/backup/resume", payload: ""))
    }

    @Test func domainCommandsMapListActionKindAndComment() throws {
        let allow = try AllowCommand.parse(["example.com"]).change
        #expect(allow.command(list: .allow, topics: topics) == BridgeCommand(topic: "home/pihole/domains/allow/add", payload: "example.com"))
        let remove = try DenyCommand.parse(["--remove", "ads.example", "--pihole", "main"]).change
        #expect(remove.command(list: .deny, topics: topics) == BridgeCommand(topic: "home/pihole/main/domains/deny/remove", payload: "ads.example"))
        let regex = try DenyCommand.parse(["--regex", "^ads\\.", "--comment", "no ads"]).change.command(list: .deny, topics: topics)
        #expect(regex.topic == "home/pihole/domains/deny/add")
        #expect(JSONValue.parse(Array(regex.payload.utf8)) == ["domain": "^ads\\.", "kind": "regex", "comment": "no ads"])
    }

    @Test func answersReadAsOneLinePerPiHole() throws {
        let utc = TimeZone(identifier: "UTC")!
        let now = ISO8601DateFormatter().date(from: "2025-06-01T12:00:00Z")!
        let snapshot: JSONValue = ["id": "main", "blocking": "disabled", "timer": 29.9, "resumes_at": "2025-06-01T12:00:30Z"]
        #expect(try PauseCommand.parse(["30", "--pihole", "main"]).describe(snapshot, timeZone: utc, now: now)
            == ["paused blocking on main for 30 s, resumes at 12:00:30"])
        #expect(try PauseCommand.parse([]).describe(["b": snapshot, "a": ["blocking": "disabled", "timer": 10]], timeZone: utc, now: now)
            == ["paused blocking on a for 10 s", "paused blocking on b for 30 s, resumes at 12:00:30"])
        #expect(try ResumeCommand.parse([]).describe(["main": ["blocking": "enabled"]]) == ["resumed blocking on main"])
        let change = try AllowCommand.parse(["x.example"]).change
        #expect(change.describe(list: .allow, data: ["main": ["domain": "x.example", "kind": "exact"]]) == ["added x.example to the allow list on main"])
    }

    @Test func statusTableHasTheBridgeAndASectionPerIntegration() throws {
        let state: [String: JSONValue] = [
            "home/bridge/state": "online",
            "home/bridge/info": ["version": "0.1.0", "integrations": ["pihole"], "config": ["mqtt": ["host": "x"]]],
            "home/bridge/health": ["uptime_seconds": 7_980, "mqtt_reconnects": 0],
            "home/pihole": ["blocking": "mixed", "resumes_at": "2025-06-01T12:00:30Z", "instances": ["main": "disabled", "backup": "enabled"]],
            "home/pihole/availability": "online",
            "home/pihole/main": ["id": "main", "blocking": "disabled", "timer": 29.9, "resumes_at": "2025-06-01T12:00:30Z",
                                 "host": "pi-main", "version": "v6.1.4", "available": true, "error": nil],
            "home/pihole/main/availability": "online",
            "home/pihole/backup": ["id": "backup", "blocking": "enabled", "timer": nil, "resumes_at": nil,
                                   "host": "pi-backup", "version": "v6.1.4", "available": true, "error": nil],
            "home/pihole/backup/availability": "online",
            // A later integration, unknown to this table, still gets its section.
            "home/reef/availability": "offline",
            "home/reef/tank": ["temperature": 25.5, "ph": 8.1],
            "home/reef/light": "on",
        ]
        let table = StatusTable(base: "home", state: state, timeZone: TimeZone(identifier: "UTC")!,
                                now: ISO8601DateFormatter().date(from: "2025-06-01T12:00:00Z")!)
        #expect(table.text == """
            bridge        online
            version       0.1.0
            uptime        2 h 13 min
            integrations  pihole

            pihole  online  blocking mixed  resumes at 12:00:30
              ID      AVAILABILITY  BLOCKING  PAUSE LEFT  RESUMES AT  HOST       VERSION
              backup  online        enabled   -           -           pi-backup  v6.1.4
              main    online        disabled  30 s        12:00:30    pi-main    v6.1.4

            reef  offline
              ID    PH   TEMPERATURE
              tank  8.1  25.5
              light  on
            """)
    }

    @Test func anOfflineBridgeSaysItsStateIsTheLastKnown() {
        let table = StatusTable(base: "home", state: ["home/bridge/state": "offline"]).text
        #expect(table.contains("bridge  offline"))
        #expect(table.contains("last state it published"))
        #expect(throws: CompanionFailure.unreachable("the bridge is offline (home/bridge/state)")) {
            try StatusCommand.check(["home/bridge/state": "offline"], topics: topics)
        }
        #expect(throws: Never.self) { try StatusCommand.check(["home/bridge/state": "online"], topics: topics) }
    }

    @Test func brokerSettingsComeFromEnvironmentThenFlags() throws {
        let options = try BrokerOptions.parse(["--host", "broker.lan", "--base-topic", "house"])
        let endpoint = try options.resolve(environment: [
            "HOME2MQTT_MQTT__HOST": "ignored", "HOME2MQTT_MQTT__PORT": "1884",
            "HOME2MQTT_MQTT__USERNAME": "watch", "HOME2MQTT_MQTT__PASSWORD": "secret",
            "HOME2MQTT_MQTT__CLIENT_ID": "home2mqtt",
            "HOME2MQTT_PIHOLE__INSTANCES__0__PASSWORD_FILE": "/nonexistent",
        ])
        #expect(endpoint.mqtt.host == "broker.lan")
        #expect(endpoint.mqtt.port == 1884)
        #expect(endpoint.mqtt.username == "watch")
        #expect(endpoint.mqtt.password == "secret")
        #expect(endpoint.mqtt.clientID.hasPrefix("home2mqtt-cli-"))
        #expect(endpoint.mqtt.will == nil)
        #expect(endpoint.topics.base == "house")
        #expect(throws: (any Error).self) { try BrokerOptions.parse(["--password", "x"]) }
    }

    @Test func badTLSFlagsAreRefusedLikeTheBridgesConfiguration() throws {
        let options = try BrokerOptions.parse(["--ca-file", "/nonexistent/ca.crt"])
        #expect(throws: CompanionFailure.self) { try options.resolve(environment: [:]) }
        let half = try BrokerOptions.parse(["--cert-file", "/etc/hostname"])
        #expect(throws: CompanionFailure.self) { try half.resolve(environment: [:]) }
    }
}
