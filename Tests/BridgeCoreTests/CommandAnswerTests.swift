import BridgeCore
import BridgeTestSupport
import Foundation
import MQTT
import MQTTTestSupport
import Testing

@Suite struct CommandAnswerTests {
    /// A lane's next command starts once the answer before it is queued, not once the broker has
    /// acknowledged it: a broker slow to acknowledge does not hold up the upstream work, and a
    /// lane no longer waits a broker round trip per command (issue 10's throughput).
    @Test func aLaneGoesOnWhileTheBrokerHasNotAcknowledgedItsAnswers() async throws {
        try await withTestBroker { broker in
            let echo = EchoIntegration()
            try await withRunningBridge(broker: broker, integrations: [echo]) { _ in
                let watched = ["home/echo/availability", "home/echo/linger", "me/replies"]
                try await Observer.watching(broker, subscribe: watched) { observer in
                    _ = try await observer.latest("home/echo/availability")
                    // Five commands on one lane, each half a second long; the broker has them all.
                    for _ in 0..<5 {
                        try await observer.send("home/echo/linger", "", properties: MQTTProperties(responseTopic: "me/replies"))
                    }
                    // Written to the observer, so to the bridge too: the broker hands a message to
                    // every subscriber at once.
                    try await waitUntil("the broker to pass on all five") {
                        observer.recorder.messages.filter { $0.topic == "home/echo/linger" }.count == 5
                    }
                    try await waitUntil("the first command to start") { echo.handled.count == 1 }
                    let pid = try #require(broker.pid)
                    kill(pid, SIGSTOP)
                    var carriedOutWhileStopped = true
                    do {
                        try await waitUntil("all five carried out", timeout: .seconds(5)) { echo.handled.count == 5 }
                    } catch {
                        carriedOutWhileStopped = false
                    }
                    kill(pid, SIGCONT)
                    #expect(carriedOutWhileStopped, "\(echo.handled.count) of 5 carried out while the broker acknowledged nothing")
                    let replies = { observer.recorder.messages.filter { $0.topic == "me/replies" } }
                    try await waitUntil("five answers") { replies().count == 5 }
                    #expect(replies().allSatisfy { JSONValue.parse($0.payload)?["status"] == "ok" })
                }
            }
        }
    }
}
