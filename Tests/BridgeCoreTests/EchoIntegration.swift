import BridgeCore
import Synchronization

/// A minimal integration for testing the bridge's seams: `echo` answers with what it got,
/// `fail` fails, `slow` outlasts the command time limit, `linger` takes half a second, `where`
/// says which thread it ran on, `<thing>/set` switches a thing, for good or for a while (a
/// persisted timer). Commands for different things run at once.
final class EchoIntegration: Integration, HomeAssistantEntities {
    let name = "echo"
    let commandFilters = ["echo", "fail", "slow", "linger", "where", "+/set"]
    let entityIDs: [String]
    private let state = Mutex<(handled: [CommandRequest], shutdowns: Int)>(([], 0))

    init(entityIDs: [String] = ["thing"]) {
        self.entityIDs = entityIDs
    }

    var handled: [CommandRequest] { state.withLock { $0.handled } }
    var shutdowns: Int { state.withLock { $0.shutdowns } }

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        let device = DiscoveryDevice(identifier: "echo", name: "Echo", model: "Echo", manufacturer: "Tests")
        return entityIDs.map { id in
            DiscoveryEntity(
                component: "switch", objectID: "echo_\(id)", name: id.capitalized, device: device,
                availabilityTopics: [topics.topic("availability")],
                options: ["state_topic": .string(topics.topic("")), "command_topic": .string(topics.topic("\(id)/set"))]
            )
        }
    }

    func run(context: IntegrationContext) async {
        await context.publishAvailability("availability", online: true)
        await context.publishState("", ["ready": true])
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
    }

    func lanes(for command: CommandRequest) -> Set<String> {
        [command.path.first ?? ""]
    }

    func handle(_ command: CommandRequest, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        state.withLock { $0.handled.append(command) }
        switch command.path {
        case let path where path.count == 2 && path[1] == "set":
            let thing = path[0]
            let change = try SwitchCommand.parse(command.payload, command: "set")
            do {
                try await context.timers.change(key: thing, timedFor: change.duration) { _ in ["on": .bool(!change.enabled)] } _: {}
            } catch {
                throw error as? CommandError ?? CommandError("\(error)")
            }
            return ["on": .bool(change.enabled)]
        case ["echo"]:
            switch command.payload {
            case .empty: return nil
            case .text(let text): return ["text": .string(text)]
            case .json(let json): return json
            }
        case ["where"]:
            return ["on_bridge_loop": .bool(BridgeEventLoop.loop.inEventLoop)]
        case ["slow"]:
            try? await Task.sleep(for: .seconds(30))
            return nil
        case ["linger"]:
            try? await Task.sleep(for: .milliseconds(500))
            return nil
        default:
            throw CommandError("echo refuses '\(command.path.joined(separator: "/"))'")
        }
    }

    func shutdown() async {
        state.withLock { $0.shutdowns += 1 }
    }
}
