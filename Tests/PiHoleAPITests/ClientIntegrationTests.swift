import UpstreamHTTP
import Foundation
import Testing

@testable import PiHoleAPI
@testable import PiHoleSimulator

@Suite("PiHoleClient against the simulator")
struct ClientIntegrationTests {
    @Test func oneLoginSIDInHeaderOnly() async throws {
        try await withFixture { f in
            for _ in 0..<100 {
                let status = try await f.client.blockingStatus()
                #expect(status == PiHoleBlockingStatus(blocking: .enabled, timer: nil))
            }
            #expect(f.simulator.loginCount == 1)
            #expect(f.client.loginCount == 1)
            let requests = f.simulator.requests
            #expect(requests.count == 101)
            for request in requests {
                #expect(request.query == nil, "no query string: \(request.path)")
                #expect(!request.path.contains("sid"))
                if request.path != "/api/auth" {
                    #expect(request.header("x-ftl-sid")?.count == 24)
                }
            }
            // The password is sent only in the login body and never logged.
            #expect(requests.filter { $0.body.contains(f.password) }.count == 1)
            #expect(!f.logs.all.isEmpty)
            #expect(f.logs.all.allSatisfy { !$0.contains(f.password) })
        }
    }

    @Test func concurrentCallersShareOneLogin() async throws {
        try await withFixture { f in
            try await withThrowingTaskGroup(of: PiHoleBlockingStatus.self) { group in
                for _ in 0..<20 { group.addTask { try await f.client.blockingStatus() } }
                for try await status in group { #expect(status.blocking == .enabled) }
            }
            #expect(f.simulator.loginCount == 1)
        }
    }

    @Test func infoEndpoints() async throws {
        try await withFixture { f in
            let host = try await f.client.hostName()
            let versions = try await f.client.versions()
            #expect(host == "pi-sim")
            #expect(versions.core.installed == "v6.1.4")
            #expect(versions.summary == "v6.1.4")
        }
    }

    /// info.yaml marks every version nullable; FTL alone knows only its own.
    @Test func versionsMayBeNull() async throws {
        try await withFixture { f in
            f.simulator.setOnlyFTLVersionKnown(true)
            let versions = try await f.client.versions()
            #expect(versions.core == PiHoleVersions.Component(installed: nil, latest: nil))
            #expect(versions.web.installed == nil)
            #expect(versions.ftl.installed == "v6.1.4")
            #expect(versions.summary == "FTL v6.1.4")
        }
    }

    @Test func twoFactorLoginSaysToUseAnAppPassword() async throws {
        try await withFixture { f in
            f.simulator.setTwoFactor(appPassword: "app-password")
            let error = await #expect(throws: PiHoleError.self) { try await f.client.blockingStatus() }
            #expect(error?.code == .twoFactorRequired)
            #expect(error?.message.contains("app password") == true)
        }
        try await withFixture(clientPassword: "app-password") { f in
            f.simulator.setTwoFactor(appPassword: "app-password")
            let status = try await f.client.blockingStatus()
            #expect(status.blocking == .enabled)
        }
    }

    /// The simulator's clock is moved by hand: on a loaded machine a real second
    /// can pass between the pause and the first look at it.
    @Test func pauseRevertsByItself() async throws {
        let clock = PiHoleSimulatorManualClock()
        try await withFixture(clock: .manual(clock)) { f in
            let paused = try await f.client.setBlocking(false, timer: 1)
            #expect(paused == PiHoleBlockingStatus(blocking: .disabled, timer: 1))
            #expect(f.simulator.blocking == .disabled)
            let body = try #require(f.simulator.requests.last { $0.path == "/api/dns/blocking" && $0.method == "POST" })
            #expect(body.body.contains(#""blocking":false"#) && body.body.contains(#""timer":1"#))

            clock.advance(by: 0.5)
            #expect(try await f.client.blockingStatus() == PiHoleBlockingStatus(blocking: .disabled, timer: 0.5))
            clock.advance(by: 0.5)
            #expect(try await f.client.blockingStatus() == PiHoleBlockingStatus(blocking: .enabled, timer: nil))

            // Permanent: timer null.
            let permanent = try await f.client.setBlocking(false, timer: nil)
            #expect(permanent == PiHoleBlockingStatus(blocking: .disabled, timer: nil))
            clock.advance(by: 60)
            #expect(f.simulator.blocking == .disabled)
            #expect(try await f.client.setBlocking(true, timer: nil).blocking == .enabled)
            #expect(f.simulator.loginCount == 1)
        }
    }

    @Test func expiredSessionCostsExactlyOneLogin() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            f.simulator.expireAllSessions()
            _ = try await f.client.blockingStatus()
            _ = try await f.client.blockingStatus()
            #expect(f.simulator.loginCount == 2)
            #expect(f.client.loginCount == 2)
            #expect(f.simulator.activeSessionCount == 1)
        }
    }

    @Test func rejectedRetryThrowsUnauthorizedWithoutLooping() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            // Session gone and the password changed: one re-login, which fails.
            f.simulator.expireAllSessions()
            f.simulator.setPassword("changed")
            let error = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(error?.code == .wrongPassword)
            #expect(f.simulator.loginCount == 2)
            let next = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(next?.code == .backingOff)
            #expect(f.simulator.loginCount == 2)
        }
    }

    @Test func wrongPasswordThenBackingOffWithoutRequest() async throws {
        try await withFixture(clientPassword: "Tr0ub4dor&3-not-it") { f in
            let first = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(first?.code == .wrongPassword)
            #expect(first?.message == "password incorrect")
            let recorded = f.simulator.requests.count
            #expect(recorded == 1)

            let second = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(second?.code == .backingOff)
            #expect(second?.retryAfter != nil)
            #expect(f.simulator.requests.count == recorded)
            #expect(!(second?.description.contains(f.password) ?? true))
            #expect(!(first?.description.contains(f.password) ?? true))
            #expect(f.logs.all.allSatisfy { !$0.contains(f.password) })
        }
    }

    @Test func seatsExceededDoesNotLoop() async throws {
        let clock = PiHoleSimulatorManualClock()
        try await withFixture(clock: .manual(clock)) { f in
            for _ in 0..<16 {
                let (status, _) = try await directLogin(f.http, baseURL: f.simulator.baseURL, password: f.password)
                #expect(status == 200)
                clock.advance(by: 0.5)  // stay under the 3-per-second login limit
            }
            #expect(f.simulator.activeSessionCount == 16)
            let error = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(error?.code == .seatsExceeded)
            #expect(error?.message.contains("API seats exceeded") == true)
            let again = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(again?.code == .backingOff)
            #expect(f.simulator.loginCount == 17)
            #expect(f.simulator.requests.filter { $0.path != "/api/auth" }.isEmpty)
        }
    }

    @Test func domainsDuplicateMissingAndLowercase() async throws {
        try await withFixture { f in
            try await f.client.addDomain("Ads.Example.COM", to: .deny, kind: .exact, comment: "home2mqtt")
            #expect(f.simulator.domains("deny", kind: "exact") == ["ads.example.com"])

            let duplicate = await piHoleError {
                try await f.client.addDomain("ads.example.com", to: .deny, kind: .exact, comment: nil)
            }
            #expect(duplicate?.code == .duplicate)
            #expect(duplicate?.message.hasPrefix("UNIQUE constraint failed") == true)

            let missing = await piHoleError {
                try await f.client.removeDomain("nothere.example", from: .allow, kind: .exact)
            }
            #expect(missing?.code == .notFound)
            #expect(missing?.message == "nothere.example is not on the allow list")

            let spaces = await piHoleError {
                try await f.client.addDomain("bad domain.com", to: .allow, kind: .exact, comment: nil)
            }
            #expect(spaces?.code == .badRequest)

            let regex = #"(^|\.)tracker\.net$"#
            try await f.client.addDomain(regex, to: .deny, kind: .regex, comment: nil)
            #expect(f.simulator.domains("deny", kind: "regex") == [regex])
            try await f.client.removeDomain(regex, from: .deny, kind: .regex)
            #expect(f.simulator.domains("deny", kind: "regex").isEmpty)

            try await f.client.removeDomain("ads.example.com", from: .deny, kind: .exact)
            #expect(f.simulator.domains("deny", kind: "exact").isEmpty)
            #expect(f.simulator.loginCount == 1)
        }
    }

    @Test func logoutGivesTheSeatBack() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            #expect(f.simulator.activeSessionCount == 1)
            let sid = try #require(f.simulator.requests.last?.header("x-ftl-sid"))
            await f.client.logout()
            let delete = try #require(f.simulator.requests.last)
            #expect(delete.method == "DELETE" && delete.path == "/api/auth")
            #expect(delete.header("x-ftl-sid") == sid)
            #expect(f.simulator.activeSessionCount == 0)
            // Nothing to log out: no request.
            let count = f.simulator.requests.count
            await f.client.logout()
            #expect(f.simulator.requests.count == count)
        }
    }

    @Test func logoutAgainstStoppedSimulatorIsBounded() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            await f.simulator.stop()
            let started = ContinuousClock.now
            await f.client.logout()
            #expect(ContinuousClock.now - started < .seconds(3))
        }
    }

    @Test func logoutAgainstHangingServerIsBounded() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            try await f.simulator.setFault(.delay(.seconds(8)))
            let started = ContinuousClock.now
            await f.client.logout()
            #expect(ContinuousClock.now - started < .seconds(3))
            try await f.simulator.setFault(nil)
        }
    }

    @Test func transportErrorWhenStopped() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            await f.simulator.stop()
            let error = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(error?.code == .transport)
        }
    }

    @Test func transportErrorOnFreshClientThenBackoff() async throws {
        try await withFixture { f in
            try await f.simulator.setFault(.down)
            let started = ContinuousClock.now
            let error = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(error?.code == .transport)
            let next = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(next?.code == .backingOff)
            // Not retried until the request timeout: the refusal itself is the answer.
            #expect(ContinuousClock.now - started < .seconds(5), "a refused connect fails before the request timeout")
            // Back up on the same port.
            try await f.simulator.setFault(nil)
            let (status, _) = try await directLogin(f.http, baseURL: f.simulator.baseURL, password: f.password)
            #expect(status == 200)
        }
    }

    @Test func serverErrorAndDroppedConnection() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            try await f.simulator.setFault(.serverError)
            let server = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(server?.code == .server)
            try await f.simulator.setFault(.dropConnections)
            let dropped = await piHoleError { _ = try await f.client.blockingStatus() }
            #expect(dropped?.code == .transport)
            try await f.simulator.setFault(nil)
            let status = try await f.client.blockingStatus()
            #expect(status.blocking == .enabled)
            #expect(f.simulator.loginCount == 1)
        }
    }
}
