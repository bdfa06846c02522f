import MQTT
import Testing
@testable import BridgeCore

/// Guest Wi-Fi codes never reach the page: a command's payload and answer, and a retained state,
/// on a topic an integration names in `credentialTopics` are shown withheld.
@Suite struct CredentialWithholdingTests {
    @Test func commandsAndRetainedStatesOnCredentialTopicsAreWithheld() {
        let activity = BridgeActivity(baseTopic: "home")
        activity.withhold(["home/unifi/voucher/#", "home/unifi/controller/+/voucher/#"])
        let received = BridgeActivityTests.Received(activity)
        let code = "4861409510"
        let answer = CommandResponse(result: .success(["vouchers": [["code": .string(code)]]]), transaction: nil)
        for topic in ["home/unifi/voucher/create", "home/unifi/controller/home/voucher/revoke"] {
            _ = activity.answered(MQTTMessage(topic: topic, payload: Array(#"{"code":"\#(code)"}"#.utf8)), answer)
        }
        activity.published("home/unifi/voucher/latest", Array(#"{"code":"\#(code)"}"#.utf8), retain: true)
        activity.published("home/unifi/controller/home/vouchers", Array(#"{"count":1}"#.utf8), retain: true)
        _ = activity.answered(MQTTMessage(topic: "home/pihole/pause", payload: Array("30".utf8)), answer)
        let events = received.events.withLock { $0.map(\.json) }
        #expect(events.count == 5)
        #expect(events.prefix(3).allSatisfy { !$0.encodedString().contains(code) }, "\(events)")
        #expect(events[0]["payload"] == .string(BridgeActivity.withheldText) && events[0]["answer"] == .string(BridgeActivity.withheldText))
        #expect(events[2]["payload"] == .string(BridgeActivity.withheldText))
        #expect(events[3]["payload"] == #"{"count":1}"#, "the list without codes is shown")
        // Cleared stays cleared: the page sees the code go.
        activity.published("home/unifi/voucher/latest", [], retain: true)
        #expect(received.events.withLock { $0.last?.json["payload"] } == "")
    }
}
