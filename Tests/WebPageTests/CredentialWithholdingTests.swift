import Testing
import BridgeCore
@testable import WebPage

/// Guest Wi-Fi codes never reach the page: a command's payload and answer, and a retained state,
/// that the bridge marks as carrying credentials (an integration's `credentialTopics`) are shown
/// withheld.
@Suite struct CredentialWithholdingTests {
    @Test func commandsAndRetainedStatesOnCredentialTopicsAreWithheld() {
        let activity = PageActivity(baseTopic: "home")
        let received = PageActivityTests.Received(activity)
        let code = "4861409510"
        let answer = CommandResponse(result: .success(["vouchers": [["code": .string(code)]]]), transaction: nil)
        for topic in ["home/unifi/voucher/create", "home/unifi/controller/home/voucher/revoke"] {
            activity.answered(PageActivityTests.answered(topic, #"{"code":"\#(code)"}"#, answer, credentials: true))
        }
        activity.published("home/unifi/voucher/latest", Array(#"{"code":"\#(code)"}"#.utf8), retain: true, carriesCredentials: true)
        activity.published("home/unifi/controller/home/vouchers", Array(#"{"count":1}"#.utf8), retain: true, carriesCredentials: false)
        activity.answered(PageActivityTests.answered("home/pihole/pause", "30", answer))
        let events = received.events.withLock { $0.map(\.json) }
        #expect(events.count == 5)
        #expect(events.prefix(3).allSatisfy { !$0.encodedString().contains(code) }, "\(events)")
        #expect(events[0]["payload"] == .string(PageActivity.withheldText) && events[0]["answer"] == .string(PageActivity.withheldText))
        #expect(events[2]["payload"] == .string(PageActivity.withheldText))
        #expect(events[3]["payload"] == #"{"count":1}"#, "the list without codes is shown")
        // Cleared stays cleared: the page sees the code go.
        activity.published("home/unifi/voucher/latest", [], retain: true, carriesCredentials: true)
        #expect(received.events.withLock { $0.last?.json["payload"] } == "")
    }
}
