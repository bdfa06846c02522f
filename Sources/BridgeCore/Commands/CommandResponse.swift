import MQTT

/// The one answer every command gets.
///
/// `{"status":"ok","data":{…},"transaction":…}` or
/// `{"status":"error","error":"…","code":"…","transaction":…}` (with `data` when the error carries
/// what was done nonetheless),
/// on the command's MQTT 5 response topic (with its correlation data) or on `<command topic>/response`.
public struct CommandResponse: Sendable, Equatable {
    public let result: Result<JSONValue?, CommandError>
    public let transaction: JSONValue?

    public init(result: Result<JSONValue?, CommandError>, transaction: JSONValue?) {
        self.result = result
        self.transaction = transaction
    }

    public var payload: JSONValue {
        var object: [String: JSONValue] = [:]
        switch result {
        case .success(let data):
            object["status"] = "ok"
            if let data { object["data"] = data }
        case .failure(let error):
            object["status"] = "error"
            object["error"] = .string(error.message)
            object["code"] = .string(error.code.rawValue)
            if let data = error.data { object["data"] = data }
        }
        if let transaction { object["transaction"] = transaction }
        return .object(object)
    }

    /// Where and how to publish the answer to `command`.
    public static func destination(for command: MQTTMessage) -> (topic: String, properties: MQTTProperties) {
        if let responseTopic = command.properties.responseTopic, !responseTopic.isEmpty {
            return (responseTopic, MQTTProperties(correlationData: command.properties.correlationData, contentType: "application/json"))
        }
        return (BridgeTopics.defaultResponseTopic(for: command.topic), MQTTProperties(contentType: "application/json"))
    }
}
