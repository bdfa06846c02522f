import ArgumentParser

/// The command tree; `ProcessEntry` runs it.
struct Home2MQTT: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home2mqtt",
        abstract: "Puts a home's network appliances on MQTT.",
        discussion: """
            run and check-config are the bridge; healthcheck asks a running bridge's /healthz; the other \
            commands are clients of a running bridge, over MQTT only. home2mqtt-demo runs the bridge against \
            simulated appliances.
            """,
        subcommands: [
            RunCommand.self, CheckConfigCommand.self, HealthcheckCommand.self, FingerprintCommand.self,
            StatusCommand.self, PauseCommand.self, ResumeCommand.self, AllowCommand.self, DenyCommand.self,
            BlockedCommand.self, WhyCommand.self, RulesCommand.self, RuleSwitchCommand.self, GuestVoucherCommand.self,
            OutletCommand.self, FeedCommand.self, SceneSwitchCommand.self,
        ]
    )
}

/// `--config FILE`, shared by the commands that read the bridge's configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The YAML configuration file. Environment variables HOME2MQTT_<SECTION>__<KEY> override it.")
    var config: String?
}

/// Exit status for a configuration the bridge refuses (sysexits' EX_CONFIG).
let configErrorExitCode = ExitCode(78)
