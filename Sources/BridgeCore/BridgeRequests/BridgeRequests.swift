/// `base/bridge/request/<name>`: the bridge's own requests (zigbee2mqtt's `bridge/request`),
/// carried through the same command queue as an integration's commands, so they are parsed,
/// bounded and answered (MQTT 5 response topic and correlation data, `transaction`) the same way.
struct BridgeRequests: Integration, CommandTimeLimits {
    let name = "bridge"
    let commandFilters = ["request/+"]
    let healthCheck: @Sendable () -> JSONValue
    let logControl: LogControl
    let reload: @Sendable () async -> Result<JSONValue, CommandError>

    /// A request, read once from its topic.
    enum Request: Sendable {
        case healthCheck
        case logLevel(CommandRequest.Payload)
        case reload
    }

    static let names = ["health_check", "log_level", "reload"]

    func run(context: IntegrationContext) async {}

    func shutdown() async {}

    func parse(_ request: CommandRequest) throws(CommandError) -> Request {
        switch request.path.last ?? "" {
        case "health_check": return .healthCheck
        case "log_level": return .logLevel(request.payload)
        case "reload": return .reload
        case let other: throw CommandError("unknown request '\(other.prefix(40))': the bridge answers \(Self.names.joined(separator: ", "))", code: .unknownTarget)
        }
    }

    /// Each request in a lane of its own: a health check is answered while a reload runs.
    func lanes(for request: Request) -> Set<String> {
        switch request {
        case .healthCheck: ["health_check"]
        case .logLevel: ["log_level"]
        case .reload: ["reload"]
        }
    }

    /// A reload stops and starts integrations, each bounded: more than a command's time.
    func timeLimit(for request: Request) -> Duration? {
        if case .reload = request { .seconds(60) } else { nil }
    }

    func handle(_ request: Request, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        switch request {
        case .healthCheck: return healthCheck()
        case .logLevel(let payload): return try LogLevelRequest.apply(payload, on: logControl, logger: context.logger)
        case .reload: return try await reload().get()
        }
    }
}
