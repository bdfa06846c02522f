import ArgumentParser
import BridgeCore

/// What every companion command takes: the broker, how long to wait, and the output format.
struct CompanionOptions: ParsableArguments {
    @OptionGroup var broker: BrokerOptions

    @Option(help: "Seconds to wait in all: to connect, and for the bridge's answer or state.")
    var timeout: Double = 10

    @Flag(help: "Print JSON for machines instead of text.")
    var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds")
        }
    }

    var timeLimit: Duration { .milliseconds(Int64((timeout * 1000).rounded())) }

    /// Sends the command `make` builds for the bridge's topics, waits for the answer and prints
    /// it: with `--json` the whole response, otherwise `describe(data)`. Exits 1 when the bridge
    /// answers with an error, 2 when there is no answer.
    func send(_ make: (BridgeTopics) -> BridgeCommand, describe: (JSONValue) -> [String]) async throws {
        try await send({ topics, _ async throws(CompanionFailure) in make(topics) }, describe: describe)
    }

    /// As above, for a command that needs the bridge's retained state to be built (a rule named by its name, say).
    func send(
        _ make: (BridgeTopics, CompanionSession) async throws(CompanionFailure) -> BridgeCommand, describe: (JSONValue) -> [String]
    ) async throws {
        try await runCompanion { () async throws(CompanionFailure) in
            let endpoint = try broker.resolve()
            let response = try await CompanionSession.with(endpoint, timeout: timeLimit) { session async throws(CompanionFailure) in
                let command = try await make(endpoint.topics, session)
                return try await session.request(command.topic, payload: command.payload)
            }
            if json { print(response.encodedString()) }
            guard response["status"] == "ok" else {
                throw .refused(
                    response["error"]?.stringValue ?? "the bridge reported an error without a message",
                    code: response["code"]?.stringValue.flatMap(CommandErrorCode.init(rawValue:)))
            }
            if !json { print(describe(response["data"] ?? .null).joined(separator: "\n")) }
        }
    }
}

extension CompanionOptions {
    /// The bridge's retained state, by topic (JSON where it is JSON), and its topics.
    func retainedState() async throws(CompanionFailure) -> (topics: BridgeTopics, state: [String: JSONValue]) {
        let endpoint = try broker.resolve()
        let retained = try await CompanionSession.with(endpoint, timeout: timeLimit) { session async throws(CompanionFailure) in
            try await session.retainedState()
        }
        return (endpoint.topics, StatusCommand.parse(retained))
    }
}

/// A command as it goes on the wire: a topic and a payload.
struct BridgeCommand: Equatable, Sendable {
    let topic: String
    let payload: String
}
