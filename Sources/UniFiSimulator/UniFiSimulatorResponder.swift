#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText
import Hummingbird
import JSONDocument
import NIOConcurrencyHelpers
import NIOCore
import SimulatorSupport

/// Bridges Hummingbird requests to ``UniFiSimulatorEngine``: records every request, applies
/// injected faults, runs the engine under the lock, delays outside it.
struct UniFiSimulatorResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let core: NIOLockedValueBox<UniFiSimulatorState>

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let bodyData = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
        let path = request.uri.path
        let recorded = UniFiSimulator.RecordedRequest(request, body: bodyData)
        var simulated = SimulatedRequest(
            method: request.method.rawValue, path: path,
            segments: recorded.pathSegments,
            query: Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }) { first, _ in first },
            apiKey: recorded.header("x-api-key"), body: bodyData)

        let (fault, outcome) = core.withLockedValue { state -> (UniFiSimulator.Fault?, SimulatedResponse) in
            state.requests.append(recorded)
            let fault = state.fault(for: path)
            switch fault {
            case .unauthorized: return (fault, UniFiSimulatorEngine.proxyUnauthorized)
            case .notFound: return (fault, UniFiSimulatorEngine.error(404, "api.resource-not-found", "Not found (simulated)", simulated))
            case .rateLimited(let seconds):
                var response = UniFiSimulatorEngine.error(429, "api.rate-limited", "Too many requests (simulated)", simulated)
                response.retryAfterSeconds = seconds
                return (fault, response)
            // A dropped connection answers nothing: the 500 is never sent.
            case .serverError, .dropConnections:
                return (fault, UniFiSimulatorEngine.error(500, "api.internal-error", "Internal server error (simulated)", simulated))
            case .offsetStuckAtZero:
                if simulated.method == "GET" { simulated.query["offset"] = "0" }
                return (fault, UniFiSimulatorEngine.handle(simulated, state: &state))
            case .listChangesBetweenPages:
                let response = UniFiSimulatorEngine.handle(simulated, state: &state)
                if simulated.method == "GET", path.hasSuffix(UniFiSimulator.Collection.aclRules.rawValue), (simulated.query["offset"] ?? "0") == "0" {
                    state.makeRuleSortingFirst(site: simulated.segments.dropLast().last ?? "")
                }
                return (fault, response)
            case .delay, nil:
                return (fault, UniFiSimulatorEngine.handle(simulated, state: &state))
            }
        }
        if fault == .dropConnections { return .droppedConnection() }
        if case .delay(let delay) = fault { try await Task.sleep(for: delay) }
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        if let seconds = outcome.retryAfterSeconds { fields[.retryAfter] = String(seconds) }
        return Response(
            status: .init(code: outcome.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: outcome.body.encoded())))
    }
}
