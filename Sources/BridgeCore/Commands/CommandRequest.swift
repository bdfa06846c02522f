import PlainText
import MQTT

/// A command as an integration sees it: where it came from and what it says.
public struct CommandRequest: Sendable {
    /// The topic below the integration's root: `pause`, `main/pause`, `domains/allow/add`.
    public let path: [String]
    public let payload: Payload
    /// Echoed in the response when the command's JSON carried one.
    public let transaction: JSONValue?
    /// Whether the answer goes to the requester alone (an MQTT 5 response topic, or the page),
    /// not to `<topic>/response`, which every subscriber of it reads: what only the requester may
    /// see (a voucher's code) is left out of an answer that is not.
    public let answeredPrivately: Bool

    public enum Payload: Sendable, Equatable {
        case empty
        case text(String)
        case json(JSONValue)
    }

    public init(path: [String], payload: Payload, transaction: JSONValue? = nil, answeredPrivately: Bool = false) {
        self.path = path
        self.payload = payload
        self.transaction = transaction
        self.answeredPrivately = answeredPrivately
    }

    /// Payloads larger than this are answered with an error and never parsed.
    public static let maximumPayloadSize = 64 * 1024

    /// Reads an MQTT message addressed to an integration's root. `answeredPrivately`: whether the
    /// answer reaches its sender alone; by default, whether the message names a response topic (an
    /// MQTT 5 client's own), not the default one anyone may read.
    /// - Returns: `nil` for a retained message: a retained command would re-run on every restart.
    public static func parse(
        _ message: MQTTMessage, below root: String, answeredPrivately: Bool? = nil
    ) -> Result<CommandRequest, CommandError>? {
        guard !message.retain else { return nil }
        guard message.payload.count <= maximumPayloadSize else {
            return .failure(CommandError("payload too large: \(message.payload.count) bytes, at most \(maximumPayloadSize)"))
        }
        guard let text = String(validating: message.payload, as: UTF8.self) else {
            return .failure(CommandError("payload is not valid UTF-8"))
        }
        // Topic levels are split at the byte `/`, as MQTT splits them: by `Character`, a `/`
        // followed by a combining mark would not split, and every level would cost a grapheme walk.
        let path = message.topic.utf8.dropFirst(root.utf8.count + 1)
            .split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        let answeredPrivately = answeredPrivately ?? !(message.properties.responseTopic ?? "").isEmpty
        let trimmed = Self.trimmed(text)
        if trimmed.isEmpty {
            return .success(CommandRequest(path: path, payload: .empty, answeredPrivately: answeredPrivately))
        }
        if trimmed.first == "\"" {
            guard case .string(let quoted)? = JSONValue.parse(Array(trimmed.utf8)) else {
                return .failure(CommandError("payload starts like a JSON string but does not parse"))
            }
            return .success(CommandRequest(path: path, payload: .text(quoted), answeredPrivately: answeredPrivately))
        }
        if trimmed.first == "{" || trimmed.first == "[" {
            guard let json = JSONValue.parse(Array(trimmed.utf8)) else {
                return .failure(CommandError("payload looks like JSON but does not parse"))
            }
            return .success(CommandRequest(path: path, payload: .json(json), transaction: json["transaction"], answeredPrivately: answeredPrivately))
        }
        return .success(CommandRequest(path: path, payload: .text(trimmed), answeredPrivately: answeredPrivately))
    }

    /// `text` without the white space around it. A payload that starts and ends with a visible
    /// ASCII character (`30`, `{"seconds":30}`, `on`) has none and is taken as it is: trimming
    /// walks its ends by grapheme, on every command. (Neither end can then be
    /// white space: no grapheme that holds a visible ASCII character starts with any.)
    private static func trimmed(_ text: String) -> String {
        let visibleASCII: ClosedRange<UInt8> = 0x21...0x7E
        if let first = text.utf8.first, let last = text.utf8.last, visibleASCII.contains(first), visibleASCII.contains(last) {
            return text
        }
        return text.trimmed()
    }
}

/// Why a command failed: in words for the person who sent it, and as a code for a program.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let code: CommandErrorCode
    /// What was done nonetheless, for the answer's `data`: a scene's parts, some of them applied.
    public let data: JSONValue?

    /// Most failures are a payload the topic does not take; every other kind says its code.
    public init(_ message: String, code: CommandErrorCode = .invalidPayload, data: JSONValue? = nil) {
        self.message = message
        self.code = code
        self.data = data
    }

    public var description: String { message }
}
