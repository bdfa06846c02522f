import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing

/// Issue 11: a command whose MQTT 5 message expiry passes while it waits for its turn (behind
/// a slow one, or in the bridge's session while it is away: there the broker drops it, see
/// BrokerRestartTests) is not carried out; it is answered with an error and logged.
@Suite struct CommandExpiryTests {
    @Test func aCommandThatExpiresWhileItWaitsIsDroppedWithALogLine() async throws {
        let capture = LogCapture()
        try await AllIntegrations.run(logger: capture.logger("all")) { all, observer in
            try await all.piHole.setFault(.delay(.seconds(3)))
            let burst = CommandBurst(observer)
            let slow = try await burst.send("home/pihole/main/pause", "401")
            let expiring = try await burst.send("home/pihole/main/pause", "402", expiry: 1)
            let lasting = try await burst.send("home/pihole/main/pause", "403", expiry: 60)
            let dropped = try await burst.answer(expiring)
            #expect(dropped["status"] == "error")
            #expect(dropped["error"]?.stringValue?.contains("expiry") == true, "\(dropped)")
            let carriedOut = try await burst.answer(lasting)
            #expect(carriedOut["status"] == "ok", "\(carriedOut)")
            _ = try await burst.answer(slow)
            #expect(all.piHole.pauseCalls.map(\.seconds) == [401, 403])
            #expect(capture.all.contains { $0.contains("message expiry passed") && $0.contains("home/pihole/main/pause") })
            try await all.piHole.setFault(nil)
        }
    }
}
