import BridgeCore
import BridgeTestSupport
@testable import home2mqtt
import Testing
import UniFiSimulator
import UniFiTestSupport

/// `home2mqtt voucher`: the real binary, a real broker, a bridge wired to the UniFi simulator.
@Suite struct VoucherCompanionTests {
    private func withOnlineBridge(_ body: @escaping (UniFiFixture, [String]) async throws -> Void) async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest("home/unifi/controller/home/vouchers")
                try await body(fixture, ["--host", fixture.broker.host, "--port", String(fixture.broker.port)])
            }
        }
    }

    @Test func printsTheCodeOfTheVoucherItMade() async throws {
        try await withOnlineBridge { fixture, broker in
            let result = try await companion(["voucher", "--for", "2d", "--guests", "2", "--note", "Grandma"] + broker)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try #require(fixture.simulator.vouchers().first)
            #expect(stored["timeLimitMinutes"] == 2880 && stored["authorizedGuestLimit"] == 2 && stored["name"] == "Grandma")
            let code = try #require(stored["code"]?.stringValue)
            #expect(result.stdout == "\(code)  2 d 0 h from first use, 2 guests\n", "\(result.stdout)")
        }
    }

    /// The default as a user writes it, not the type's inside.
    @Test func helpShowsTheDefaultDurationAsWritten() async throws {
        let help = try await companion(["voucher", "create", "--help"])
        #expect(help.stdout.contains("(default: 1d)"), "\(help.stdout)")
        #expect(DurationArgument(argument: "2d12h90s")?.defaultValueDescription == "2d12h1m30s")
    }

    @Test func revokeTakesAVoucherBackByCodeOrByID() async throws {
        try await withOnlineBridge { fixture, broker in
            #expect(try await companion(["voucher", "create", "--count", "2"] + broker).status == 0)
            let made = fixture.simulator.vouchers()
            let code = try #require(made.first?["code"]?.stringValue), id = try #require(made.last?["id"]?.stringValue)
            let byCode = try await companion(["voucher", "revoke", code] + broker)
            #expect(byCode.status == 0 && byCode.stdout == "revoked 1 voucher(s) on home\n", "\(byCode.stdout)\(byCode.stderr)")
            #expect(try await companion(["voucher", "revoke", "--id", id] + broker).status == 0)
            #expect(fixture.simulator.vouchers().isEmpty)
            let again = try await companion(["voucher", "revoke", code] + broker)
            #expect(again.status == 5 && again.stderr.contains("no voucher has this code"), "\(again.stderr)")
            #expect(try await companion(["voucher", "revoke"] + broker).status == 64)
            #expect(try await companion(["voucher", "revoke", code, "--id", id] + broker).status == 64)
        }
    }

    @Test func refusalsAreExitCodes() async throws {
        try await withOnlineBridge { fixture, broker in
            // Out of the console's range: refused by the bridge (invalid_payload, exit 3), nothing sent.
            let tooMany = try await companion(["voucher", "--count", "1001"] + broker)
            #expect(tooMany.status == 3)
            #expect(tooMany.stderr.contains("\"count\" must be 1…1000"), "\(tooMany.stderr)")
            // Not whole minutes: a usage error before anything is sent.
            #expect(try await companion(["voucher", "--for", "90s"] + broker).status == 64)
            let unknown = try await companion(["voucher", "--controller", "attic"] + broker)
            #expect(unknown.status == 4 && unknown.stderr.contains("attic"), "\(unknown.stderr)")
            #expect(fixture.simulator.requestCount(method: "POST") == 0)
        }
    }
}
