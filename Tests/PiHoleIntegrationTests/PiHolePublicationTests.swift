import BridgeCore
import Foundation
import PiHoleAPI
@testable import PiHoleIntegration
import Testing

/// The Pi-hole's state messages, as pure values.
@Suite struct PiHolePublicationTests {
    static let snapshots: [(id: String, snapshot: PiHoleSnapshot)] = {
        var alpha = PiHoleSnapshot()
        alpha.update(with: PiHoleBlockingStatus(blocking: .disabled, timer: 30), at: Date(timeIntervalSince1970: 1_790_000_000))
        alpha.available = true
        alpha.details.groups = []
        var beta = PiHoleSnapshot()
        beta.error = "connection refused"
        beta.details.groups = []
        return [("alpha", alpha), ("beta", beta)]
    }()

    /// After a pause of one Pi-hole, the publish covers its state and the aggregate's, each as
    /// the whole state has it, and leaves the other Pi-hole and every group to the whole state.
    @Test func aBlockingPartIsItsPiHolesStateAndTheAggregatesAsTheWholeStateHasThem() {
        let whole = PiHolePublication(snapshots: Self.snapshots, groups: PiHoleGroupRegistry(), clients: PiHoleClientRegistry()).messages
        let part = PiHolePublication.blockingMessages(of: ["alpha"], in: Self.snapshots)
        #expect(part.map(\.topic) == ["alpha", "alpha/availability", "", "availability"])
        for (topic, message) in part {
            #expect(whole.first { $0.topic == topic }?.message == message, "\(topic)")
        }
        #expect(Set(whole.map(\.topic)).subtracting(part.map(\.topic)) == ["beta", "beta/availability", "alpha/groups", "beta/groups", "groups"])
        #expect(PiHolePublication.blockingMessages(of: ["beta"], in: Self.snapshots).first?.message == .json(Self.snapshots[1].snapshot.payload(id: "beta")))
    }
}
