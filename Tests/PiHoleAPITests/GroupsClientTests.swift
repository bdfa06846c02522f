import Foundation
import Testing

@testable import PiHoleAPI
@testable import PiHoleSimulator

@Suite("PiHoleClient groups against the simulator")
struct GroupsClientTests {
    @Test func listStartsWithDefault() async throws {
        try await withFixture { f in
            f.simulator.addGroup(name: "Kids", comment: "tablets", enabled: false)
            let groups = try await f.client.groups()
            #expect(groups.map(\.name) == ["Default", "Kids"])
            #expect(groups[0].isDefault && groups[0].comment == "The default group" && groups[0].enabled)
            #expect(!groups[1].isDefault && groups[1].comment == "tablets" && !groups[1].enabled)
        }
    }

    /// FTL's PUT replaces the whole group: a client leaving `comment` out would erase it.
    @Test func setGroupEnabledKeepsTheComment() async throws {
        try await withFixture { f in
            f.simulator.addGroup(name: "Kids & Teens", comment: "school devices", enabled: true)
            let disabled = try await f.client.setGroupEnabled("Kids & Teens", false)
            #expect(disabled.name == "Kids & Teens" && !disabled.enabled && disabled.comment == "school devices")
            #expect(f.simulator.group(named: "Kids & Teens")?.comment == "school devices")
            #expect(f.simulator.group(named: "Kids & Teens")?.enabled == false)

            let put = try #require(f.simulator.requests.last { $0.method == "PUT" })
            #expect(put.path == "/api/groups/Kids%20%26%20Teens")
            let body = try #require(JSONSerialization.jsonObject(with: Data(put.body.utf8)) as? [String: Any])
            #expect(Set(body.keys) == ["name", "comment", "enabled"])

            let enabledAgain = try await f.client.setGroupEnabled("Kids & Teens", true)
            #expect(enabledAgain.enabled)
            #expect(f.simulator.group(named: "Kids & Teens")?.comment == "school devices")
            #expect(f.simulator.groupsCreatedByPost == 0)
        }
    }

    @Test func groupWithoutCommentStaysWithout() async throws {
        try await withFixture { f in
            f.simulator.addGroup(name: "IoT")
            let group = try await f.client.setGroupEnabled("IoT", false)
            #expect(group.comment == nil && !group.enabled)
            let put = try #require(f.simulator.requests.last { $0.method == "PUT" })
            #expect(put.body.contains(#""comment":null"#))
        }
    }

    /// FTL's PUT would create an unknown group: the client must not send one.
    @Test func unknownGroupIsNotFoundWithoutPut() async throws {
        try await withFixture { f in
            let error = await piHoleError { _ = try await f.client.setGroupEnabled("Nope", false) }
            #expect(error?.code == .notFound)
            #expect(f.simulator.groupPutCount == 0)
            #expect(f.simulator.groupsCreatedByPost == 0)
            #expect(f.simulator.group(named: "Nope") == nil)
            #expect(!f.simulator.requests.contains { $0.method == "PUT" })
        }
    }
}
