import BridgeCore
import Prometheus
import WebPage

/// What the optional HTTP listener (`bridge.health`) answers: `/healthz` 200 only while the
/// broker is connected, `/metrics` the Prometheus text of everything `BridgeMetrics` records,
/// and with `bridge.web` the bridge's page.
///
/// SwiftNIO's HTTP/1 server pipeline (`HTTPListener`), which the HTTP client links anyway: a web
/// framework here (Hummingbird, with the file system, middleware and stream libraries it
/// brings) would add megabytes to the shipped binary.
struct HealthRoutes: Sendable {
    let registry: PrometheusCollectorRegistry
    let isHealthy: @Sendable () -> Bool
    let page: PageRoutes?

    func answer(_ request: WebRequest) async -> WebAnswer {
        switch request.path {
        case "/healthz", "/metrics":
            guard request.head.method == .GET || request.head.method == .HEAD else { return .full(.text(.methodNotAllowed, "GET only")) }
            if request.path == "/metrics" {
                return .full(WebResponse(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: registry.emitToBuffer()))
            }
            return .full(isHealthy() ? .text(.ok, "ok") : .text(.serviceUnavailable, "MQTT broker not connected"))
        default:
            return await page?.answer(request) ?? .full(.text(.notFound, "not found"))
        }
    }
}
