import BridgeCore
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// The optional HTTP listener (`bridge.health`): `/healthz` answers 200 only while the broker
/// is connected, `/metrics` is the Prometheus text of everything `BridgeMetrics` records.
func makeHealthServer(
    _ configuration: HealthConfiguration, registry: PrometheusCollectorRegistry, logger: Logger,
    isHealthy: @escaping @Sendable () -> Bool
) -> some Service {
    let router = Router()
    router.get("healthz") { _, _ -> Response in
        isHealthy()
            ? Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
            : Response(status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: "MQTT broker not connected\n")))
    }
    router.get("metrics") { _, _ -> Response in
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.bindAddress, port: configuration.port), serverName: nil),
        logger: logger)
}
