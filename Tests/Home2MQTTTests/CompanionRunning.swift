import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleTestSupport

extension PiHoleFixture {
    /// `--host H --port P`, for a companion command to reach this broker.
    var brokerArguments: [String] { ["--host", broker.host, "--port", String(broker.port)] }

    /// `run`, with `body` starting once every Pi-hole's state says it is available and the
    /// aggregate state, published after them, has them all. (A companion that subscribed before
    /// the aggregate reached the broker got it live, not retained, and `status` left it out: seen
    /// once under the full suite's load.)
    static func runOnline(ids: [String] = ["main"], _ body: (PiHoleFixture, Observer) async throws -> Void) async throws {
        try await run(ids: ids) { fixture, observer in
            for id in ids { _ = try await observer.latest("home/pihole/\(id)") { $0["available"] == true } }
            _ = try await observer.latest("home/pihole") { aggregate in
                ids.allSatisfy { id in aggregate["instances"]?[id].map { $0 != "unknown" } ?? false }
            }
            try await body(fixture, observer)
        }
    }
}

/// Runs the built `home2mqtt` with `arguments` and waits for it to exit.
func companion(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(30))
    async throws -> (status: Int32, stdout: String, stderr: String)
{
    try await BridgeProcess(arguments, environment: environment).finish(timeout: timeout)
}
