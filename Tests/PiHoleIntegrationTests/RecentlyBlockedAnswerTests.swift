import BridgeCore
import Foundation
import PiHoleAPI
@testable import PiHoleIntegration
import Testing

/// The merge of the Pi-holes' blocked queries, as a pure value.
@Suite struct RecentlyBlockedAnswerTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func query(_ domain: String, _ secondsAgo: Double, _ ip: String, _ name: String? = nil) -> PiHoleQuery {
        PiHoleQuery(time: now - secondsAgo, domain: domain, status: "GRAVITY", clientIP: ip, clientName: name)
    }

    @Test func eachDomainOnceNewestFirstWithItsClientsAndPiHoles() {
        let answer = RecentlyBlockedAnswer(request: RecentlyBlockedRequest(), pages: [
            ("alpha", PiHoleQueryPage(queries: [Self.query("a.example", 5, "10.0.0.1"), Self.query("b.example", 50, "10.0.0.2", "tv")], recordsFiltered: 2)),
            ("beta", PiHoleQueryPage(queries: [Self.query("b.example", 1, "10.0.0.3")], recordsFiltered: 1)),
        ])
        #expect(answer.domains.map(\.domain) == ["b.example", "a.example"])
        #expect(answer.domains[0].count == 2)
        #expect(answer.domains[0].piholes == ["alpha", "beta"])
        #expect(answer.domains[0].clients == ["10.0.0.2": "tv", "10.0.0.3": nil])
        #expect(answer.queriesRead == 3)
        #expect(!answer.truncated)
    }

    @Test func truncatedWhenAPiHoleHadMoreOrThereAreMoreDomainsThanTheLimit() {
        let more = RecentlyBlockedAnswer(request: RecentlyBlockedRequest(), pages: [
            ("alpha", PiHoleQueryPage(queries: [Self.query("a.example", 5, "10.0.0.1")], recordsFiltered: 1500)),
        ])
        #expect(more.truncated)
        var limited = RecentlyBlockedRequest()
        limited.limit = 1
        let cut = RecentlyBlockedAnswer(request: limited, pages: [
            ("alpha", PiHoleQueryPage(queries: [Self.query("a.example", 5, "10.0.0.1"), Self.query("b.example", 6, "10.0.0.1")], recordsFiltered: 2)),
        ])
        #expect(cut.domains.map(\.domain) == ["a.example"])
        #expect(cut.truncated)
    }

    @Test(arguments: ["192.168.1.23", "fe80::1", "2001:db8::7"])
    func clientAddressesAreAccepted(_ client: String) {
        #expect(RecentlyBlockedRequest.isClientAddress(client))
    }

    @Test(arguments: ["192.168.1.*", "192.168.1", "256.1.1.1", "host.lan", "1.2.3.4&x=y", ""])
    func anythingElseIsNot(_ client: String) {
        #expect(!RecentlyBlockedRequest.isClientAddress(client))
    }
}
