import Foundation
import Logging
import MQTT
import MQTTTestSupport

/// A fast reconnect policy so reconnect tests finish quickly.
let fastReconnect = MQTTReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(500), jitter: 0.2)

func uniqueID(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8))"
}

func testLogger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = ProcessInfo.processInfo.environment["MQTT_TEST_LOG"] != nil ? .trace : .warning
    return logger
}

func makeClient(
    _ broker: TestBroker,
    _ prefix: String,
    configure: (inout MQTTConfiguration) -> Void = { _ in }
) throws -> MQTTClient {
    var configuration = MQTTConfiguration(clientID: uniqueID(prefix), host: broker.host, port: broker.port)
    configuration.reconnect = fastReconnect
    configure(&configuration)
    return try MQTTClient(configuration: configuration, logger: testLogger(configuration.clientID))
}

/// Creates, connects and returns a client; the caller disconnects it.
func connectedClient(
    _ broker: TestBroker,
    _ prefix: String,
    configure: (inout MQTTConfiguration) -> Void = { _ in }
) async throws -> MQTTClient {
    let client = try makeClient(broker, prefix, configure: configure)
    try await client.connect(timeout: .seconds(10))
    return client
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
