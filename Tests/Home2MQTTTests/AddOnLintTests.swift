import BridgeTestSupport
import Foundation
import Testing

/// scripts/lint-addon: the add-on as committed passes the add-on linter's schemas and rules (in
/// ../shared/specs/ha-addon, beside the checkout), and a copy that breaks one fails, naming it.
@Suite struct AddOnLintTests {
    static let lint = AddOn.repository.appendingPathComponent("scripts/lint-addon").path

    @Test func theAddOnPasses() async throws {
        let result = try await BridgeProcess([AddOn.folder.path], executable: Self.lint).finish(timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("pass the add-on linter's schemas and rules"))
    }

    struct Breach: Sendable, CustomTestStringConvertible {
        let rule: String
        let file: String
        let replacing: String
        let with: String
        /// What the lint's output must say.
        let message: String
        var testDescription: String { rule }
    }

    static let breaches: [Breach] = [
        Breach(rule: "schema: unknown architecture", file: "config.yaml", replacing: "  - amd64\n", with: "  - amd64\n  - sparc\n",
               message: "config.yaml: arch.2: 'sparc' is not one of"),
        Breach(rule: "schema: unknown property", file: "config.yaml", replacing: "slug: home2mqtt\n", with: "slug: home2mqtt\nstartup_delay: 5\n",
               message: "'startup_delay' was unexpected"),
        Breach(rule: "schema: build_from", file: "build.yaml", replacing: "amd64: debian:bookworm-slim", with: "amd64: 'debian bookworm'",
               message: "build.yaml: build_from.amd64: 'debian bookworm' does not match"),
        Breach(rule: "a default given", file: "config.yaml", replacing: "slug: home2mqtt\n", with: "slug: home2mqtt\nboot: auto\n",
               message: "config.yaml: boot: 'auto' is the default; leave it out"),
        Breach(rule: "watchdog", file: "config.yaml", replacing: "slug: home2mqtt\n", with: "slug: home2mqtt\nwatchdog: tcp://[HOST]:[PORT:9134]\n",
               message: "config.yaml: watchdog: use the image's HEALTHCHECK instead"),
        Breach(rule: "unsupported architecture", file: "config.yaml", replacing: "  - amd64\n", with: "  - amd64\n  - armv7\n",
               message: "config.yaml: arch: armv7 is unsupported"),
        Breach(rule: "map: config", file: "config.yaml", replacing: "  - addon_config:ro\n", with: "  - config\n  - addon_config:ro\n",
               message: "config.yaml: map: config together with homeassistant_config or addon_config"),
        Breach(rule: "ingress with webui", file: "config.yaml", replacing: "ingress: true\n", with: "ingress: true\nwebui: http://[HOST]:[PORT:9134]/\n",
               message: "config.yaml: webui: not together with ingress: true"),
        Breach(rule: "ingress port of the start script", file: "config.yaml", replacing: "ingress_port: 9134", with: "ingress_port: 9135",
               message: "config.yaml: ingress_port: 9135, but home2mqtt-addon gives the bridge 9134"),
        Breach(rule: "version of the bridge", file: "config.yaml", replacing: "version: \"", with: "version: \"9",
               message: "config.yaml: version:"),
        Breach(rule: "an option without a name", file: "translations/en.yaml", replacing: "  controls:\n    name: Controls on the page\n", with: "  controls:\n",
               message: "translations/en.yaml: configuration.controls: no name"),
        Breach(rule: "a field without a name", file: "translations/en.yaml", replacing: "      api_key:\n        name: API key\n", with: "      api_key:\n",
               message: "translations/en.yaml: configuration.unifi.fields.api_key: no name"),
        Breach(rule: "a runtime package left out", file: "Dockerfile", replacing: " libyaml-0-2 ", with: " ",
               message: "Dockerfile: the runtime stage lacks what the root Dockerfile's installs: libyaml-0-2"),
    ]

    @Test(arguments: breaches)
    func aBreachFails(breach: Breach) async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ha-addon-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: AddOn.folder, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try #require(FileManager.default.isExecutableFile(atPath: copy.appendingPathComponent("home2mqtt-addon").path), "a faithful copy")
        let file = copy.appendingPathComponent(breach.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        try #require(text.contains(breach.replacing), "the breach no longer applies to \(breach.file)")
        try text.replacingOccurrences(of: breach.replacing, with: breach.with).write(to: file, atomically: true, encoding: .utf8)

        let result = try await BridgeProcess([copy.path], executable: Self.lint).finish(timeout: .seconds(120))
        #expect(result.status == 1)
        #expect(result.stdout.contains(breach.message), "\(result.stdout)\(result.stderr)")
    }
}
