@testable import BridgeCore
import Testing

/// What a reload changes, from the configuration running, the one read now and the one at start.
@Suite struct ReloadPlanTests {
    static func tree(_ yaml: String) throws -> ConfigTree { try ConfigTree.parse(yaml: yaml) }

    @Test func integrationsAreAddedRemovedChangedOrLeftAlone() throws {
        let old = try Self.tree("pihole:\n  poll_interval: 5\nunifi:\n  url: x\nbellas_reef:\n  url: y\n")
        let new = try Self.tree("pihole:\n  poll_interval: 2\nunifi:\n  url: x\nother:\n  a: 1\n")
        let plan = ReloadPlan(
            from: old, to: new, running: ["pihole", "unifi", "bellas_reef"], wanted: ["pihole", "unifi", "other"], started: old)
        #expect(plan.changed == ["pihole"])
        #expect(plan.unchanged == ["unifi"])
        #expect(plan.added == ["other"])
        #expect(plan.removed == ["bellas_reef"])
        #expect(plan.notApplied == [])
    }

    /// The scenes run as the integration `scene`, read from `scenes:`: a change there restarts them.
    @Test func scenesAreChangedByTheirOwnSection() throws {
        let old = try Self.tree("pihole:\n  poll_interval: 5\nscenes:\n  - name: A\n")
        let new = try Self.tree("pihole:\n  poll_interval: 5\nscenes:\n  - name: B\n")
        let plan = ReloadPlan(from: old, to: new, running: ["pihole", "scene"], wanted: ["pihole", "scene"], started: old)
        #expect(plan.changed == ["scene"])
        #expect(plan.unchanged == ["pihole"])
    }

    /// Against the configuration at start: a key changed and changed back is no longer waiting.
    @Test func bridgeKeysOtherThanTheLogSettingsWaitForARestart() throws {
        let started = try Self.tree("mqtt:\n  host: a\nbridge:\n  log_level: info\n  health:\n    port: 1\n")
        let running = try Self.tree("mqtt:\n  host: b\nbridge:\n  log_level: info\n  health:\n    port: 1\n")
        let new = try Self.tree("mqtt:\n  host: a\n  keepalive: 60\nbridge:\n  log_level: debug\n  log_format: json\n  base_topic: house\n  health:\n    port: 2\n")
        let plan = ReloadPlan(from: running, to: new, running: [], wanted: [], started: started)
        #expect(plan.notApplied == ["mqtt.keepalive", "bridge.health.port", "bridge.base_topic"])
    }

    @Test func aSectionThatWasAScalarIsOneKey() throws {
        let started = try Self.tree("bridge:\n  health: off\n")
        let new = try Self.tree("bridge:\n  health:\n    enabled: true\n")
        #expect(ReloadPlan(from: started, to: new, running: [], wanted: [], started: started).notApplied == ["bridge.health"])
    }
}
