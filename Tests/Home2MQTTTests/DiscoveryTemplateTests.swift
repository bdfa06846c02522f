import BridgeCore
import AllUpstreamsTestSupport
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// Every Home Assistant template the bridge declares, over all three integrations, reads the
/// payload only when it is a JSON object: the empty message that clears a state topic, reaching
/// an entity Home Assistant is still removing, made it log "'value_json' is undefined".
@Suite struct DiscoveryTemplateTests {
    @Test func everyTemplateIsSafeOnAnEmptyPayload() async throws {
        try await AllUpstreams.run { upstreams in
            let bridge = try BridgeProcess(["run", "--config", try upstreams.configFile()])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await Observer.watching(upstreams.broker, subscribe: ["home/#", "homeassistant/#"]) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_probe_000000be5efd_temperature/config")
                let configs = observer.recorder.messages.filter { $0.topic.hasPrefix("homeassistant/") && !$0.payload.isEmpty }
                    .compactMap { JSONValue.parse($0.payload)?.objectValue }
                let templates = configs.flatMap { config in
                    config.filter { $0.key.hasSuffix("_template") }.compactMap(\.value.stringValue)
                }
                #expect(templates.count > 40)
                for template in templates where template.contains("value_json") {
                    #expect(template.contains(ValueTemplate.isObject), "\(template)")
                    #expect(!template.contains(/value_json\.(?!get\()[a-z]/), "a field read without get: \(template)")
                }
            }
        }
    }
}
