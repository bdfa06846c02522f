import Logging
import MQTT
import Synchronization

/// Retained messages on command topics are never commands: a retained command would run again
/// at every restart, and clearing it (an empty retained publish) would run as an empty command.
/// Each one is logged once per topic with how to clear it; the broker's re-deliveries after a
/// reconnect and the clearing message itself are logged only at debug level.
///
/// This works whenever the message arrives because the bridge subscribes to command topics with
/// MQTT 5's Retain As Published. MQTT 3.1.1 has no such option: there a broker clears the flag on
/// live delivery, so only the retained copy sent at subscribe time can be recognised.
final class RetainedCommandLog: Sendable {
    private let warned = Mutex<Set<String>>([])

    /// The subscription options of every command topic.
    static let subscriptionOptions = MQTTSubscriptionOptions(retainAsPublished: true)

    func ignore(_ message: MQTTMessage, logger: Logger) {
        let topic = message.topic
        if message.payload.isEmpty {
            warned.withLock { _ = $0.remove(topic) }
            logger.debug("ignored the clearing of a retained command", metadata: ["topic": "\(topic)"])
            return
        }
        let isNew = warned.withLock { $0.insert(topic).inserted }
        guard isNew else {
            logger.debug("ignored a retained command again", metadata: ["topic": "\(topic)"])
            return
        }
        logger.warning(
            "ignored a retained command: publish commands without the retain flag",
            metadata: ["topic": "\(topic)", "hint": "clear it with: mosquitto_pub -r -n -t '\(topic)'"])
    }
}
