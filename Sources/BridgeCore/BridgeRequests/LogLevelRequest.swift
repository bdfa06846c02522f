import Logging

/// `bridge/request/log_level`: `{"level":"debug"}` (or `debug`) sets the running log level until
/// the next reload or restart, which take `bridge.log_level` again; an empty payload asks for it.
/// Answers `{"level":"debug"}`.
enum LogLevelRequest {
    static var usage: String {
        #"log_level takes {"level":"<level>"} with one of "# + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
    }

    static func apply(_ payload: CommandRequest.Payload, on control: LogControl, logger: Logger) throws(CommandError) -> JSONValue {
        let text: String
        switch payload {
        case .empty:
            return ["level": .string(control.level.rawValue)]
        case .text(let word):
            text = word
        case .json(.object(let object)):
            if let unknown = object.keys.sorted().first(where: { !["level", "transaction"].contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
            }
            guard case .string(let word)? = object["level"] else { throw CommandError(#""level" must be a string: "# + usage) }
            text = word
        case .json:
            throw CommandError(usage)
        }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw CommandError("unknown level '\(text.prefix(40))': \(usage)")
        }
        control.level = level
        logger.notice("log level set", metadata: ["level": "\(level)"])
        return ["level": .string(level.rawValue)]
    }
}
