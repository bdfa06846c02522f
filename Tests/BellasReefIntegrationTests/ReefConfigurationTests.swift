@testable import BellasReefIntegration
import BridgeCore
import Testing

@Suite struct ReefConfigurationTests {
    private func configuration(_ yaml: String) throws -> ReefConfiguration {
        try ReefConfiguration(try LoadedConfiguration(tree: ConfigTree.parse(yaml: yaml)).section("reef"))
    }

    @Test func theServicesDefaultToTheCoresHostAndCanBeTurnedOff() throws {
        let defaults = try configuration("reef:\n  url: http://192.168.1.20:8000\n  username: a\n  password: b\n")
        #expect(defaults.connection.temperatureURL == "http://192.168.1.20:8004")
        #expect(defaults.connection.outletURL == "http://192.168.1.20:8005")
        #expect(defaults.outletsInterval == .seconds(10))
        #expect(defaults.metricsInterval == .seconds(30))
        let off = try configuration("reef:\n  url: https://reef.lan\n  temperature_url: false\n  outlets_url: \"\"\n  username: a\n  password: b\n")
        #expect(off.services == [.core])
    }

    @Test func errorsNameTheKey() {
        let cases = [
            ("reef:\n  url: http://x\n  username: a\n  password: b\n  outlet_interval: 5\n", "reef.outlet_interval"),
            ("reef:\n  url: ftp://x\n  username: a\n  password: b\n", "reef.url"),
            ("reef:\n  url: http://x\n  password: b\n", "reef.username"),
            ("reef:\n  url: http://x\n  username: a\n  password: b\n  outlets_url: nowhere\n", "reef.outlets_url"),
            ("reef:\n  url: http://x\n  username: a\n  password: b\n  request_timeout: 0\n", "reef.request_timeout"),
            (Self.feed("[Pump, {outlet: Skimmer, restore_after: 3601}]"), "reef.feed.outlets[1].restore_after"),
            (Self.feed("[Pump, {outlet: Skimmer, after: 60}]"), "reef.feed.outlets[1].after"),
            (Self.feed("[Pump, {restore_after: 60}]"), "reef.feed.outlets[1].outlet"),
            (Self.feed("[Skimmer, {outlet: Skimmer, restore_after: 60}]"), "reef.feed.outlets[1].outlet"),
            (Self.feed("[Pump, [Skimmer]]"), "reef.feed.outlets[1]"),
        ]
        for (yaml, key) in cases {
            let error = #expect(throws: ConfigError.self, "\(key)") { try configuration(yaml) }
            #expect(error?.key == key)
        }
    }

    private static func feed(_ outlets: String) -> String {
        "reef:\n  url: http://x\n  username: a\n  password: b\n  feed:\n    outlets: \(outlets)\n"
    }

    /// A feed outlet is a name, or a name with a staged return.
    @Test func aFeedOutletMayComeBackLater() throws {
        let feed = try #require(try configuration(Self.feed("[\"Return Pump\", {outlet: Skimmer, restore_after: 300}]")).feed)
        #expect(feed.outlets == [.init(name: "Return Pump", restoreAfter: .zero), .init(name: "Skimmer", restoreAfter: .seconds(300))])
    }
}
