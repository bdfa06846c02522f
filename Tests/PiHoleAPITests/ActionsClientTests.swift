import Foundation
import Testing

@testable import PiHoleAPI
@testable import PiHoleSimulator

@Suite("PiHoleClient actions against the simulator")
struct ActionsClientTests {
    /// The answer comes only once the stream has ended, however long it takes: the simulator
    /// marks the run finished before it closes the body.
    @Test func gravityAnswersAfterTheStreamEnded() async throws {
        try await withFixture { f in
            f.simulator.setGravity(domains: 4242, lastUpdate: nil)
            f.simulator.setGravityRun(duration: .milliseconds(600))
            let started = ContinuousClock.now
            let result = try await f.client.runGravity(timeout: .seconds(60))
            #expect(ContinuousClock.now - started >= .milliseconds(600))
            #expect(f.simulator.gravityRuns == 1)
            #expect(f.simulator.gravityRunsFinished == 1)
            #expect(!f.simulator.isGravityRunning)
            #expect(f.simulator.gravityLastUpdate != nil)

            #expect(result.succeeded)
            #expect(result.failures.isEmpty)
            #expect(result.lastLines.count == 10)
            #expect(result.lastLines.last == "[✓] Done.")
            #expect(result.lastLines.contains("[i] Number of gravity domains: 4242 (4242 unique domains)"))
            #expect(result.lineCount == SimulatedGravity.output(domains: 4242, fails: false, color: false).filter { !$0.isEmpty }.count)
        }
    }

    @Test func gravityFailuresAreReported() async throws {
        try await withFixture { f in
            f.simulator.setGravityRun(duration: .milliseconds(100), fails: true)
            let result = try await f.client.runGravity(timeout: .seconds(60))
            #expect(!result.succeeded)
            #expect(result.failures == ["[✗] Status: Connection Refused", "[✗] List download failed: no cached list available"])
        }
    }

    /// A run outlasts the request timeout; only the gravity timeout bounds it.
    @Test func gravityOutlastsTheRequestTimeoutButNotItsOwn() async throws {
        // The login before the run has the request timeout too, and under the whole suite a
        // loopback login was seen to take 1–3 s: hence a request timeout of seconds, not one.
        let requestTimeout = Duration.seconds(4)
        try await withFixture(requestTimeout: requestTimeout) { f in
            f.simulator.setGravityRun(duration: requestTimeout + .milliseconds(1500))
            let longRun = try await f.client.runGravity(timeout: .seconds(60))
            #expect(longRun.succeeded)

            f.simulator.setGravityRun(duration: .seconds(30))
            let error = await piHoleError { _ = try await f.client.runGravity(timeout: .milliseconds(300)) }
            #expect(error?.code == .transport)
        }
    }

    @Test func restartAndFlush() async throws {
        try await withFixture { f in
            let now = Date()
            f.simulator.recordQueries([
                SimulatedQuery(time: now - 10, domain: "a.example", clientIP: "10.0.0.2", status: "GRAVITY")
            ])
            try await f.client.restartDNS()
            try await f.client.flushLogs()
            #expect(f.simulator.dnsRestarts == 1)
            #expect(f.simulator.logFlushes == 1)
            #expect(f.simulator.queryCount == 0)
            let summary = try await f.client.summary()
            #expect(summary.queriesTotal == 0)
        }
    }

    @Test func destructiveActionsForbiddenIsClear() async throws {
        try await withFixture { f in
            f.simulator.setAllowDestructive(false)
            let restart = await piHoleError { try await f.client.restartDNS() }
            #expect(restart?.code == .forbidden)
            #expect(restart?.status == 403)
            #expect(restart?.message.contains("webserver.api.allow_destructive") == true)
            let flush = await piHoleError { try await f.client.flushLogs() }
            #expect(flush?.code == .forbidden)
            #expect(f.simulator.dnsRestarts == 0 && f.simulator.logFlushes == 0)
            // Gravity is not guarded by the setting.
            f.simulator.setGravityRun(duration: .milliseconds(50))
            let unguarded = try await f.client.runGravity(timeout: .seconds(60))
            #expect(unguarded.succeeded)
        }
    }
}
