import ArgumentParser

@main
struct Home2MQTT: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home2mqtt",
        abstract: "Puts a home's network appliances on MQTT.",
        subcommands: [RunCommand.self, CheckConfigCommand.self, HealthcheckCommand.self, DemoCommand.self]
    )
}

/// `--config FILE`, shared by the commands that read the bridge's configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The YAML configuration file. Environment variables HOME2MQTT_<SECTION>__<KEY> override it.")
    var config: String?
}

/// Exit status for a configuration the bridge refuses (sysexits' EX_CONFIG).
let configErrorExitCode = ExitCode(78)
