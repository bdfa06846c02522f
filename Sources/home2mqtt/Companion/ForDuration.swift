import ArgumentParser
import BridgeCore

/// `--for DURATION`: switch something for a while; the bridge puts it back as it was after.
struct ForDuration: ParsableArguments {
    @Option(name: .customLong("for"), help: "How long, then it goes back to how it was: 90, 90s, 30m, 1h30m, 2d.")
    var duration: DurationArgument?

    /// `"for": SECONDS` added to a command's JSON, when given.
    func adding(to payload: [String: JSONValue]) -> [String: JSONValue] {
        guard let duration else { return payload }
        return payload.merging(["for": .number(Double(duration.seconds))]) { _, new in new }
    }
}
