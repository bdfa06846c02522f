import BellasReefIntegration
import BridgeCore
import BridgeTestSupport

/// Whether a `reef:` section with `items` as its list `list` (`guard`, `interlocks`) stops the
/// start with an error that names `key`.
func reefConfigurationRefuses(_ list: String, _ items: String, naming key: String) -> Bool {
    let yaml = "reef:\n  url: http://127.0.0.1:1\n  username: a\n  password: b\n  \(list):\n" + items
    do {
        _ = try ReefIntegrationFactory().make(
            section: LoadedConfiguration(tree: ConfigTree.parse(yaml: yaml)).section("reef"),
            environment: IntegrationEnvironment(logger: testLogger("reef")))
        return false
    } catch {
        return "\(error)".contains(key)
    }
}
