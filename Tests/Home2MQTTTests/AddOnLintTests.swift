import BridgeTestSupport
import Foundation
import Testing

/// scripts/lint-addon: the add-on as committed passes the add-on linter's schemas and rules (in
/// ../shared/specs/ha-addon, beside the checkout) and the Supervisor's, and a copy that breaks one
/// fails, naming it.
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
        /// The text replaced in `file`; `nil`: `file` is a new one holding `with`.
        let replacing: String?
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

        // The Supervisor's rules (../shared/specs/README.md) and the release's.
        Breach(rule: "build.yaml is deprecated", file: "build.yaml", replacing: nil,
               with: "build_from:\n  aarch64: library/debian:bookworm-slim\n  amd64: library/debian:bookworm-slim\n",
               message: "build.yaml: deprecated by the Supervisor"),
        Breach(rule: "build.yaml against the linter's schema", file: "build.yaml", replacing: nil, with: "build_from:\n  amd64: 'debian bookworm'\n",
               message: "build.yaml: build_from.amd64: 'debian bookworm' does not match"),
        Breach(rule: "build_from without a namespace", file: "build.yaml", replacing: nil,
               with: "build_from:\n  aarch64: debian:bookworm-slim\n  amd64: debian:bookworm-slim\n",
               message: "build.yaml: build_from.aarch64: 'debian:bookworm-slim' has no namespace"),
        Breach(rule: "a config file the store reads", file: "examples/config.yml", replacing: nil, with: "log_level: info\n",
               message: "examples/config.yml: the store reads every config.yaml, config.yml and config.json as an add-on"),
        Breach(rule: "an option its type refuses", file: "config.yaml", replacing: "  reef: {}\n", with: "  reef:\n    temperature_url: false\n",
               message: "config.yaml: options: reef.temperature_url: false is refused by str? (expected a string)"),
        Breach(rule: "the documentation's example", file: "DOCS.md", replacing: "  username: admin\n", with: "  username: admin\n  temperature_url: false\n",
               message: "DOCS.md: the example under Configuration: reef.temperature_url: false is refused by str?"),
        Breach(rule: "map by its new name", file: "config.yaml", replacing: "  - addon_config:ro\n", with: "  - app_config:ro\n",
               message: "config.yaml: map: app_config is the Supervisor's newer name"),
        Breach(rule: "an image without its architecture", file: "config.yaml", replacing: "/{arch}-home2mqtt\"", with: "/home2mqtt\"",
               message: "config.yaml: image: 'ghcr.io/home2mqtt/home2mqtt' lacks {arch}"),
        Breach(rule: "an image the release does not publish", file: "config.yaml", replacing: "ghcr.io/home2mqtt/{arch}-home2mqtt",
               with: "ghcr.io/someone-else/{arch}-home2mqtt",
               message: "config.yaml: image: 'ghcr.io/someone-else/{arch}-home2mqtt', but .github/workflows/release.yml publishes 'ghcr.io/home2mqtt/{arch}-home2mqtt'"),
        Breach(rule: "a build argument the Supervisor does not pass", file: "Dockerfile", replacing: "FROM debian:bookworm-slim\n",
               with: "ARG BUILD_FROM\nFROM ${BUILD_FROM}\n",
               message: "Dockerfile: ARG BUILD_FROM: no default, and the Supervisor passes only BUILD_ARCH and BUILD_VERSION"),
        Breach(rule: "a copy from outside the folder", file: "Dockerfile", replacing: "COPY home2mqtt-addon ", with: "COPY scripts/run ",
               message: "Dockerfile: COPY scripts/run: not in the add-on's folder"),
        Breach(rule: "a changelog without the version", file: "CHANGELOG.md", replacing: "\n## ", with: "\n### ",
               message: "CHANGELOG.md: no section '## "),
    ]

    @Test(arguments: breaches)
    func aBreachFails(breach: Breach) async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ha-addon-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: AddOn.folder, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try #require(FileManager.default.isExecutableFile(atPath: copy.appendingPathComponent("home2mqtt-addon").path), "a faithful copy")
        let file = copy.appendingPathComponent(breach.file)
        if let replacing = breach.replacing {
            let text = try String(contentsOf: file, encoding: .utf8)
            try #require(text.contains(replacing), "the breach no longer applies to \(breach.file)")
            try text.replacingOccurrences(of: replacing, with: breach.with).write(to: file, atomically: true, encoding: .utf8)
        } else {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try breach.with.write(to: file, atomically: true, encoding: .utf8)
        }

        let result = try await BridgeProcess([copy.path], executable: Self.lint).finish(timeout: .seconds(120))
        #expect(result.status == 1)
        #expect(result.stdout.contains(breach.message), "\(result.stdout)\(result.stderr)")
    }
}
