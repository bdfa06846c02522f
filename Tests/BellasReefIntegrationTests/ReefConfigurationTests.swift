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
        ]
        for (yaml, key) in cases {
            let error = #expect(throws: ConfigError.self, "\(key)") { try configuration(yaml) }
            #expect(error?.key == key)
        }
    }
}
