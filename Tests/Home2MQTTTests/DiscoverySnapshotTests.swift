import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// A user's Home Assistant entities are the discovery configs: an upgrade that renames a unique
/// id, an entity id, a topic or a template orphans an entity and its history. Every config the demo
/// publishes is frozen in Tests/Snapshots/discovery.txt (one line per topic, the version made
/// `<version>`); any difference fails, and changing the file is a deliberate commit that says why.
@Suite struct DiscoverySnapshotTests {
    static let snapshotFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Snapshots/discovery.txt").standardized

    @Test func theDemosEntitiesAreTheReviewedOnes() async throws {
        let expected = try Self.lines(of: String(contentsOf: Self.snapshotFile, encoding: .utf8))
        let (demo, port, _) = try await DemoProcess.startedWithItsOwnBroker()
        defer { demo.kill() }
        let observer = try await Observer(host: "127.0.0.1", port: port, subscribe: ["homeassistant/#"])
        func current() -> [String: String] {
            var configs: [String: String] = [:]
            for message in observer.recorder.messages {
                configs[message.topic] = message.payload.isEmpty ? nil : Self.normalized(message.payload)
            }
            return configs
        }
        // Runtime entities (rules, outlets, probes) come once their lists are read, each
        // integration's back to back. How many configs there are is what is checked, so no count
        // can say when they are all in: once every kind has come, the test waits for a second
        // without a new one.
        let kinds = ["/unifi_rule_", "/reef_outlet_", "/reef_probe_", "/pihole_main_", "/pihole_backup_"]
        try? await waitUntil("every config of the snapshot", timeout: .seconds(30)) {
            let topics = current().keys
            return topics.count >= expected.count && kinds.allSatisfy { kind in topics.contains { $0.contains(kind) } }
        }
        var seen = -1
        try? await waitUntil("no new config for a second", timeout: .seconds(10), pollInterval: .seconds(1)) {
            defer { seen = observer.recorder.messages.count }
            return observer.recorder.messages.count == seen
        }
        let actual = current()
        await observer.disconnect()
        demo.signal(SIGINT)
        _ = try? await demo.finish(timeout: .seconds(10))

        guard actual != expected else { return }
        let written = Self.snapshotFile.deletingLastPathComponent().appendingPathComponent("../../.build/discovery.actual.txt").standardized
        try? Self.text(of: actual).write(to: written, atomically: true, encoding: .utf8)
        let missing = Set(expected.keys).subtracting(actual.keys).sorted()
        let added = Set(actual.keys).subtracting(expected.keys).sorted()
        let changed = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
        Issue.record("""
            the demo's discovery differs from Tests/Snapshots/discovery.txt: gone \(missing), new \(added), changed \(changed). \
            What it published is in \(written.path); if the change is meant, copy it over and say why in the commit.
            """)
    }

    /// Compact JSON with sorted keys, the bridge's version made `<version>`.
    static func normalized(_ payload: [UInt8]) -> String {
        guard let value = JSONValue.parse(payload) else { return String(decoding: payload, as: UTF8.self) }
        return value.encodedString().replacingOccurrences(of: #""sw_version":"\#(Bridge.version)""#, with: #""sw_version":"<version>""#)
    }

    static func lines(of text: String) -> [String: String] {
        var configs: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.firstIndex(of: " ") else { continue }
            configs[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return configs
    }

    static func text(of configs: [String: String]) -> String {
        """
        # Every Home Assistant discovery config the demo publishes (Tests/Home2MQTTTests/DiscoverySnapshotTests.swift):
        # a user's entities. A change here renames or removes entities: make it on purpose, and say why.

        """ + configs.keys.sorted().map { "\($0) \(configs[$0]!)" }.joined(separator: "\n") + "\n"
    }
}
