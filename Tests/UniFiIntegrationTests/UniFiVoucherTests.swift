import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing
import UniFiIntegration
import UniFiSimulator
import UniFiTestSupport

/// Guest Wi-Fi vouchers end to end: a real mosquitto, the bridge, the strict simulator.
@Suite struct UniFiVoucherTests {
    static let vouchersTopic = "home/unifi/controller/home/vouchers"

    @Test func createAnswersTheCodesAndStateListsThemWithout() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest(Self.vouchersTopic) { $0["count"] == 0 }
                let answer = try await observer.command(
                    "home/unifi/voucher/create",
                    #"{"minutes":1440,"count":2,"guests":1,"note":"Grandma","data_mb":null,"up_kbps":null,"down_kbps":2000}"#)
                #expect(answer["status"] == "ok", "\(answer)")
                let made = try #require(answer["data"]?["vouchers"]?.arrayValue)
                #expect(made.count == 2)
                let codes = made.compactMap { $0["code"]?.stringValue }
                #expect(codes.count == 2 && codes.allSatisfy { $0.count == 10 })
                #expect(made[0]["minutes"] == 1440 && made[0]["guests"] == 1 && made[0]["note"] == "Grandma" && made[0]["down_kbps"] == 2000)
                #expect(made[0]["expires_at"] == .null, "a voucher's time runs from its first use")
                let sent = try #require(fixture.simulator.requests.last { $0.method == "POST" }?.json)
                #expect(sent == ["name": "Grandma", "timeLimitMinutes": 1440, "count": 2, "authorizedGuestLimit": 1, "rxRateLimitKbps": 2000])
                let state = try await observer.latest(Self.vouchersTopic) { $0["count"] == 2 }
                #expect(state["vouchers"]?.arrayValue?.allSatisfy { $0["code"] == nil && $0["note"] == "Grandma" } == true)
                for message in observer.recorder.messages where !message.topic.hasPrefix("home/replies/") {
                    #expect(!codes.contains { (message.payloadString ?? "").contains($0) }, "\(message.topic) carries a code")
                }
            }
        }
    }

    /// The answer names the guest networks for a card (the enabled ones with a captive portal);
    /// a console that cannot say (older than the Wi-Fi broadcasts in its API) still makes the voucher.
    @Test func createNamesTheGuestNetworksAndAConsoleWithoutThemStillMakesTheVoucher() async throws {
        try await UniFiFixture.withSimulator(prepare: { $0.addDowntimeExamples(); $0.addHouseholdWifi() }) { fixture in
            try await fixture.runBridge { observer in
                let answer = try await observer.command("home/unifi/voucher/create", #"{"minutes":60}"#)
                #expect(answer["status"] == "ok" && answer["data"]?["guest_networks"] == ["Guests"], "\(answer)")
                fixture.simulator.inject(.notFound, pathContaining: "wifi/broadcasts")
                let older = try await observer.command("home/unifi/voucher/create", #"{"minutes":60}"#)
                #expect(older["status"] == "ok" && older["data"]?["guest_networks"] == .null, "\(older)")
                #expect(older["data"]?["vouchers"]?.arrayValue?.first?["code"]?.stringValue?.count == 10)
                #expect(fixture.simulator.vouchers().count == 2)
            }
        }
    }

    /// A console with more vouchers than state lists: every page up to 250, and the total; also
    /// when the last page (200 a page) passes 250.
    @Test(arguments: [311, 420]) func theListIsBounded(count: Int) async throws {
        try await UniFiFixture.withSimulator(prepare: { $0.addDowntimeExamples(); $0.addVouchers(count: count) }) { fixture in
            try await fixture.runBridge { observer in
                let state = try await observer.latest(Self.vouchersTopic)
                #expect(state["count"] == .number(Double(count)) && state["truncated"] == true)
                #expect(state["vouchers"]?.arrayValue?.count == 250)
                #expect(fixture.simulator.requests.contains { $0.path.contains("hotspot/vouchers") && ($0.query ?? "").contains("offset=200") })
            }
        }
    }

    @Test func revokeByIDAndByCode() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                let made = try #require(try await observer.command("home/unifi/voucher/create", #"{"minutes":60,"count":2}"#)["data"]?["vouchers"]?.arrayValue)
                _ = try await observer.latest(Self.vouchersTopic) { $0["count"] == 2 }
                let byID = try await observer.command("home/unifi/voucher/revoke", #"{"id":"\#(made[0]["id"]!.stringValue!)"}"#)
                #expect(byID["status"] == "ok" && byID["data"]?["revoked"] == 1, "\(byID)")
                let code = made[1]["code"]!.stringValue!
                let dashed = code.prefix(5) + "-" + code.dropFirst(5)
                let byCode = try await observer.command("home/unifi/voucher/revoke", #"{"code":"\#(dashed)"}"#)
                #expect(byCode["status"] == "ok" && byCode["data"]?["revoked"] == 1, "\(byCode)")
                #expect(fixture.simulator.vouchers().isEmpty)
                _ = try await observer.latest(Self.vouchersTopic) { $0["count"] == 0 }
                let again = try await observer.command("home/unifi/voucher/revoke", #"{"code":"\#(code)"}"#)
                #expect(again["status"] == "error")
                #expect(again["error"]?.stringValue?.contains(code) == false)
                let unknown = try await observer.command("home/unifi/voucher/revoke", #"{"id":"\#(made[0]["id"]!.stringValue!)"}"#)
                #expect(unknown["error"] == "home: no such voucher")
            }
        }
    }

    @Test(arguments: [
        ("create", #"{"count":1}"#), ("create", #"{"minutes":0}"#), ("create", #"{"minutes":1000001}"#),
        ("create", #"{"minutes":60,"count":1001}"#), ("create", #"{"minutes":60,"count":0}"#), ("create", #"{"minutes":60,"guests":0}"#),
        ("create", #"{"minutes":60,"data_mb":1048577}"#), ("create", #"{"minutes":60,"up_kbps":1}"#),
        ("create", #"{"minutes":60,"down_kbps":100001}"#), ("create", #"{"minutes":60,"note":""}"#), ("create", #"{"minutes":60.5}"#),
        ("create", #"{"minutes":"60"}"#), ("create", #"{"minutes":60,"name":"x"}"#), ("create", "1440"), ("create", ""),
        ("revoke", #"{}"#), ("revoke", #"{"id":"abc"}"#), ("revoke", #"{"code":"12ab"}"#), ("revoke", #"{"id":"x","code":"123456"}"#),
        ("revoke", #"{"code":"123456","extra":1}"#), ("preset/60", ""), ("preset/abc", "PRESS"),
    ])
    func aBadCommandIsAnsweredAndNothingIsSent(command: String, payload: String) async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest(Self.vouchersTopic)
                let answer = try await observer.command("home/unifi/voucher/\(command)", payload)
                #expect(answer["status"] == "error", "\(command) \(payload): \(answer)")
                #expect(fixture.simulator.requestCount(method: "POST") == 0)
                #expect(fixture.simulator.requestCount(method: "DELETE") == 0)
            }
        }
    }

    /// With two consoles a plain voucher/create is refused (never guessed); each console is
    /// addressed by its id, and has its own list.
    @Test func severalConsolesMustBeNamed() async throws {
        try await UniFiFixture.withSimulator { fixture in
            let office = UniFiSimulator(apiKey: "sim-api-key")
            try await office.start()
            defer { Task { await office.stop() } }
            let second = """
                    - id: office
                      url: \(office.controllerURL)
                      api_key: sim-api-key
                      tls_fingerprint: "\(office.certificate!.opensslFingerprint)"

                """
            try await fixture.runBridge(yaml: fixture.yaml(controllerExtra: second)) { observer in
                _ = try await observer.latest("home/unifi/controller/office/vouchers")
                let plain = try await observer.command("home/unifi/voucher/create", #"{"minutes":60}"#)
                #expect(plain["error"]?.stringValue?.contains("controller/<id>/voucher/") == true, "\(plain)")
                let unknown = try await observer.command("home/unifi/controller/attic/voucher/create", #"{"minutes":60}"#)
                #expect(unknown["status"] == "error")
                let made = try await observer.command("home/unifi/controller/office/voucher/create", #"{"minutes":60}"#)
                #expect(made["data"]?["controller"] == "office", "\(made)")
                #expect(office.vouchers().count == 1 && fixture.simulator.vouchers().isEmpty)
                _ = try await observer.latest("home/unifi/controller/office/vouchers") { $0["count"] == 1 }
                #expect(try await observer.latest("home/unifi/controller/home/vouchers")["count"] == 0)
            }
        }
    }

    /// The Home Assistant button makes a one-guest voucher; its code is retained for the sensor
    /// until the voucher is revoked.
    @Test func thePresetButtonKeepsItsCodeForTheSensorUntilRevoked() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge(yaml: fixture.yaml(extra: "  vouchers:\n    presets: [1440, 60]\n")) { observer in
                let button = try await observer.latest("homeassistant/button/home2mqtt_home/unifi_home_voucher_1440/config")
                #expect(button["name"] == "Guest voucher, 1 day")
                #expect(button["command_topic"] == "home/unifi/controller/home/voucher/preset/1440")
                _ = try await observer.latest("homeassistant/button/home2mqtt_home/unifi_home_voucher_60/config")
                let sensor = try await observer.latest("homeassistant/sensor/home2mqtt_home/unifi_latest_voucher/config")
                #expect(sensor["state_topic"] == "home/unifi/voucher/latest")
                let pressed = try await observer.command("home/unifi/controller/home/voucher/preset/1440", "PRESS")
                let code = try #require(pressed["data"]?["vouchers"]?.arrayValue?.first?["code"]?.stringValue, "\(pressed)")
                let latest = try await observer.latest("home/unifi/voucher/latest") { $0["code"] == .string(code) }
                #expect(latest["guests"] == 1 && latest["minutes"] == 1440 && latest["controller"] == "home")
                let later = try await Observer(fixture.broker, subscribe: ["home/unifi/voucher/latest"])
                #expect(try await later.latest("home/unifi/voucher/latest")["code"] == .string(code), "retained")
                await later.disconnect()
                // A voucher made by an ordinary command does not replace the button's.
                _ = try await observer.command("home/unifi/voucher/create", #"{"minutes":60}"#)
                _ = try await observer.latest(Self.vouchersTopic) { $0["count"] == 2 }
                #expect(try await observer.latest("home/unifi/voucher/latest")["code"] == .string(code))
                _ = try await observer.command("home/unifi/voucher/revoke", #"{"code":"\#(code)"}"#)
                try await waitUntil("the latest code to be cleared") {
                    observer.recorder.messages.last { $0.topic == "home/unifi/voucher/latest" }?.payload.isEmpty == true
                }
            }
        }
    }

    /// With more vouchers than the list shows, the list cannot tell that the button's went: its
    /// revoke, by code or by id, clears the retained code all the same.
    @Test(arguments: [true, false]) func aRevokeClearsTheLatestCodeAlsoWhenTheListIsTruncated(byCode: Bool) async throws {
        try await UniFiFixture.withSimulator(prepare: { $0.addDowntimeExamples(); $0.addVouchers(count: 300) }) { fixture in
            try await fixture.runBridge(yaml: fixture.yaml(extra: "  vouchers:\n    presets: [1440]\n")) { observer in
                _ = try await observer.latest(Self.vouchersTopic) { $0["truncated"] == true }
                let pressed = try await observer.command("home/unifi/controller/home/voucher/preset/1440", "PRESS")
                let made = try #require(pressed["data"]?["vouchers"]?.arrayValue?.first, "\(pressed)")
                _ = try await observer.latest("home/unifi/voucher/latest") { $0["code"] == made["code"] }
                let revoke = byCode ? #"{"code":"\#(made["code"]?.stringValue ?? "")"}"# : #"{"id":"\#(made["id"]?.stringValue ?? "")"}"#
                #expect(try await observer.command("home/unifi/voucher/revoke", revoke)["status"] == "ok")
                try await waitUntil("the latest code to be cleared") {
                    observer.recorder.messages.last { $0.topic == "home/unifi/voucher/latest" }?.payload.isEmpty == true
                }
            }
        }
    }

    /// Home Assistant's button sends no response topic: its answer, on `<topic>/response`, which
    /// any subscriber reads, carries no code and says where it is; `voucher/latest` has it.
    @Test func aPressWithoutAResponseTopicIsAnsweredWithoutTheCode() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge(yaml: fixture.yaml(extra: "  vouchers:\n    presets: [1440]\n")) { observer in
                _ = try await observer.latest("homeassistant/button/home2mqtt_home/unifi_home_voucher_1440/config")
                try await observer.send("home/unifi/controller/home/voucher/preset/1440", "PRESS")
                let answer = try await observer.latest("home/unifi/controller/home/voucher/preset/1440/response")
                #expect(answer["status"] == "ok", "\(answer)")
                let code = try #require(fixture.simulator.vouchers().first?["code"]?.stringValue)
                #expect(!answer.encodedString().contains(code), "\(answer)")
                #expect(answer["data"]?["codes"]?.stringValue?.contains("voucher/latest") == true, "\(answer)")
                _ = try await observer.latest("home/unifi/voucher/latest") { $0["code"] == .string(code) }
            }
        }
    }

    @Test func theLatestCodeCanBeTurnedOff() async throws {
        try await UniFiFixture.withSimulator { fixture in
            // A code retained while the option was on is cleared at the start.
            let before = try await Observer(fixture.broker, subscribe: ["home/unifi/voucher/latest"])
            try await before.send("home/unifi/voucher/latest", #"{"code":"1234567890"}"#, retain: true)
            _ = try await before.latest("home/unifi/voucher/latest")
            await before.disconnect()
            try await fixture.runBridge(yaml: fixture.yaml(extra: "  vouchers:\n    latest_code: false\n")) { observer in
                _ = try await observer.latest("homeassistant/button/home2mqtt_home/unifi_home_voucher_1440/config")
                let pressed = try await observer.command("home/unifi/controller/home/voucher/preset/1440", "PRESS")
                #expect(pressed["status"] == "ok")
                _ = try await observer.latest(Self.vouchersTopic) { $0["count"] == 1 }
                // Retained messages come in the order of the subscriptions: the list's after the code's.
                let later = try await Observer(fixture.broker, subscribe: ["home/unifi/voucher/latest", Self.vouchersTopic])
                _ = try await later.latest(Self.vouchersTopic) { $0["count"] == 1 }
                #expect(!later.recorder.messages.contains { $0.topic == "home/unifi/voucher/latest" && !$0.payload.isEmpty })
                await later.disconnect()
                #expect(!observer.recorder.messages.contains { $0.topic.hasSuffix("unifi_latest_voucher/config") && !$0.payload.isEmpty })
            }
        }
    }

    /// No log line, at any level, carries a code: made, revoked by code, refused.
    @Test func noLogLineCarriesACode() async throws {
        let logs = LogCapture()
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge(logs: logs) { observer in
                let made = try await observer.command("home/unifi/voucher/create", #"{"minutes":60,"count":3}"#)
                let codes = try #require(made["data"]?["vouchers"]?.arrayValue).compactMap { $0["code"]?.stringValue }
                _ = try await observer.command("home/unifi/voucher/revoke", #"{"code":"\#(codes[0])"}"#)
                _ = try await observer.command("home/unifi/voucher/revoke", #"{"code":"\#(codes[0])"}"#)
                fixture.simulator.inject(.serverError, pathContaining: "hotspot")
                _ = try await observer.command("home/unifi/voucher/revoke", #"{"code":"\#(codes[1])"}"#)
                let lines = logs.all
                #expect(lines.contains { $0.contains("hotspot/vouchers") }, "the requests are logged")
                for code in codes {
                    #expect(!lines.contains { $0.contains(code) }, "a log line carries \(code)")
                }
            }
        }
    }
}

/// `unifi.vouchers`: a mistake stops the start naming the key.
@Suite struct VoucherConfigurationTests {
    static let controller = "  controllers:\n    - id: home\n      url: https://127.0.0.1\n      api_key: k\n"

    @Test(arguments: [
        ("  vouchers:\n    presets: [0]\n", "unifi.vouchers.presets[0]"), ("  vouchers:\n    presets: [60, 60]\n", "unifi.vouchers.presets"),
        ("  vouchers:\n    latest_code: maybe\n", "unifi.vouchers.latest_code"), ("  vouchers:\n    code: true\n", "unifi.vouchers.code"),
    ])
    func aMistakeNamesItsKey(yaml: String, key: String) throws {
        let tree = try ConfigTree.parse(yaml: "unifi:\n" + yaml + Self.controller)
        let section = try LoadedConfiguration(tree: tree).section("unifi")
        #expect {
            _ = try UniFiIntegrationFactory().make(section: section, environment: IntegrationEnvironment(logger: testLogger("unifi")))
        } throws: { error in
            (error as? ConfigError)?.key == key
        }
    }
}

/// The topics where codes go are the ones the page withholds (and the ACL denies the watch).
@Test func everyTopicWithACodeIsACredentialTopic() throws {
    let tree = try ConfigTree.parse(yaml: "unifi:\n" + VoucherConfigurationTests.controller)
    let integration = try #require(
        try UniFiIntegrationFactory().make(
            section: try LoadedConfiguration(tree: tree).section("unifi"), environment: IntegrationEnvironment(logger: testLogger("unifi"))))
    let credentials = try #require(integration as? any CredentialTopics)
    let covered = { (topic: String) in credentials.credentialTopics.contains { TopicFilter.matches($0, topic: topic) } }
    for topic in ["voucher/create", "voucher/revoke", "voucher/latest", "controller/home/voucher/create", "controller/home/voucher/preset/1440"] {
        #expect(covered(topic), "\(topic)")
    }
    #expect(!covered("controller/home/vouchers"), "the list carries no code")
}
