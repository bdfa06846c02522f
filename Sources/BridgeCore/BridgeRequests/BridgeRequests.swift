/// `base/bridge/request/<name>`: the bridge's own requests (zigbee2mqtt's `bridge/request`),
/// carried through the same command queue as an integration's commands, so they are parsed,
/// bounded and answered (MQTT 5 response topic and correlation data, `transaction`) the same way.
struct BridgeRequests: Integration {
    let name = "bridge"
    let commandFilters = ["request/+"]
    let healthCheck: @Sendable () -> JSONValue
    let logControl: LogControl
    let reload: @Sendable () async -> Result<JSONValue, CommandError>

    static let names = ["health_check", "log_level", "reload"]

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] { [] }

    func run(context: IntegrationContext) async {}

    func shutdown() async {}

    /// Each request in a lane of its own: a health check is answered while a reload runs.
    func lanes(for command: CommandRequest) -> Set<String> { [command.path.last ?? ""] }

    /// A reload stops and starts integrations, each bounded: more than a command's time.
    func timeLimit(for command: CommandRequest) -> Duration? { command.path.last == "reload" ? .seconds(60) : nil }

    func handle(_ command: CommandRequest, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        switch command.path.last ?? "" {
        case "health_check":
            return healthCheck()
        case "log_level":
            return try LogLevelRequest.carryOut(command.payload, on: logControl, logger: context.logger)
        case "reload":
            return try await reload().get()
        case let other:
            throw CommandError("unknown request '\(other.prefix(40))': the bridge answers \(Self.names.joined(separator: ", "))")
        }
    }
}
