import Foundation
import MQTT
import Synchronization
import Testing
import BridgeCore
@testable import WebPage

/// What the page is fed: the bridge's retained state under its base topic, bounded; its own
/// warnings and events; every command with its answer.
@Suite struct PageActivityTests {
    /// Every event a subscriber got, after the snapshot it started from.
    final class Received: Sendable {
        let snapshot = Mutex<JSONValue?>(nil)
        let events = Mutex<[ActivityEvent]>([])

        init(_ activity: PageActivity) {
            _ = activity.subscribe(start: { snapshot in self.snapshot.withLock { $0 = snapshot } }, { event in
                self.events.withLock { $0.append(event) }
            })
        }

        var names: [String] { events.withLock { $0.map(\.name) } }
    }

    @Test func mirrorsRetainedStateUnderTheBaseTopicAndTheBridgesOwnMessages() {
        let activity = PageActivity(baseTopic: "home")
        activity.published("home/pihole/main", Array(#"{"blocking":"enabled"}"#.utf8), retain: true, carriesCredentials: false)
        let received = Received(activity)
        #expect(received.snapshot.withLock { $0?["retained"]?["home/pihole/main"]?["payload"] } == #"{"blocking":"enabled"}"#)

        activity.published("home/pihole/main", Array(#"{"blocking":"enabled"}"#.utf8), retain: true, carriesCredentials: false)  // unchanged
        activity.published("home/pihole/main", Array(#"{"blocking":"disabled"}"#.utf8), retain: true, carriesCredentials: false)
        activity.published("homeassistant/switch/x/config", Array("{}".utf8), retain: true, carriesCredentials: false)  // not under the base
        activity.published("home2/pihole", Array("x".utf8), retain: true, carriesCredentials: false)  // another base that starts alike
        activity.published("home/pihole/pause/response", Array(#"{"status":"ok"}"#.utf8), retain: false, carriesCredentials: false)  // an answer
        activity.published("home/bridge/logging", Array(#"{"level":"warning","message":"slow"}"#.utf8), retain: false, carriesCredentials: false)
        activity.published("home/bridge/event", Array(#"{"type":"upstream_unavailable"}"#.utf8), retain: false, carriesCredentials: false)
        activity.published("home/pihole/main", [], retain: true, carriesCredentials: false)  // cleared
        #expect(received.names == ["retained", "message", "message", "retained"])
        let cleared = received.events.withLock { $0.last?.json }
        #expect(cleared?["topic"] == "home/pihole/main" && cleared?["payload"] == "")
    }

    @Test func theMirrorIsBoundedByCountAndBytes() {
        var mirror = RetainedMirror()
        let now = Date()
        for index in 0..<RetainedMirror.maximumTopics { _ = mirror.record("home/t/\(index)", "x", at: now) }
        #expect(mirror.record("home/t/more", "x", at: now) == nil)
        #expect(mirror.leftOut == 1)
        #expect(mirror.record("home/t/0", "changed", at: now) != nil, "a topic it holds still changes")
        #expect(mirror.record("home/t/1", String(repeating: "x", count: RetainedMirror.maximumPayloadBytes + 1), at: now) == nil)

        var full = RetainedMirror()
        let large = String(repeating: "x", count: RetainedMirror.maximumPayloadBytes)
        var index = 0
        while full.record("home/large/\(index)", large, at: now) != nil { index += 1 }
        #expect(index == RetainedMirror.maximumBytes / (large.utf8.count + "home/large/0".utf8.count + 1))
    }

    static func answered(
        _ topic: String, _ payload: String, _ response: CommandResponse, inProcess: Bool = false, credentials: Bool = false
    ) -> AnsweredCommand {
        AnsweredCommand(
            topic: topic, payload: Array(payload.utf8), response: response, duration: .milliseconds(250), sentInProcess: inProcess,
            carriesCredentials: credentials)
    }

    @Test func recordsEveryCommandWithItsAnswerAndWhetherThePageSentIt() {
        let activity = PageActivity(baseTopic: "home")
        let received = Received(activity)
        let ok = CommandResponse(result: .success(nil), transaction: nil)
        activity.answered(Self.answered("home/pihole/pause", "30", ok))
        activity.answered(Self.answered("home/reef/outlet/heater/set", "ON", ok, inProcess: true))
        let records = received.events.withLock { $0.map(\.json) }
        #expect(records.map { $0["topic"] } == ["home/pihole/pause", "home/reef/outlet/heater/set"])
        #expect(records.map { $0["from_page"] } == [false, true])
        #expect(records.first?["answer"] == #"{"status":"ok"}"#)
        #expect(records.first?["seconds"] == 0.25)

        // A large payload and answer are kept clipped.
        let long = CommandResponse(result: .failure(CommandError(String(repeating: "e", count: 100_000))), transaction: nil)
        activity.answered(Self.answered("home/pihole/domains/deny/add", String(repeating: "a", count: 100_000), long))
        let clipped = received.events.withLock { $0.last?.json }
        #expect(clipped?["payload"]?.stringValue?.utf8.count ?? 0 <= PageActivity.maximumTextBytes + 3)
        #expect(clipped?["answer"]?.stringValue?.hasSuffix("…") == true)
    }
}
