#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import SimulatorSupport

/// Bridges Hummingbird requests of one service to ``ReefEngine``: records, applies the
/// service's fault, runs the engine under the lock, waits out delays outside it.
struct ReefResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let service: BellasReefSimulator.Service
    let state: NIOLockedValueBox<ReefSimulatorState>

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let body = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
        let recorded = BellasReefSimulator.RecordedRequest(request, body: body)
        let simulated = ReefSimulatedRequest(
            method: request.method.rawValue,
            segments: recorded.pathSegments,
            trailingSlash: recorded.path.count > 1 && recorded.path.hasSuffix("/"),
            rawQuery: recorded.query, queryItems: ReefQuery.parse(recorded.query), headers: recorded.headers, body: body)

        let service = self.service
        let (fault, outcome) = state.withLockedValue { state in
            state.requests[service, default: RequestLog()].append(recorded)
            let fault = state.faults[service]
            switch fault {
            // A dropped connection answers nothing: the 500 is never sent.
            case .serverError, .dropConnections: return (fault, ReefSimulatedResponse.internalError)
            default: return (fault, ReefEngine.handle(simulated, service: service, state: &state, now: state.options.now()))
            }
        }
        if fault == .dropConnections { return .droppedConnection() }
        if case .delay(let delay) = fault { try await Task.sleep(for: delay) }
        if outcome.delay > .zero { try await Task.sleep(for: outcome.delay) }
        return Self.response(outcome)
    }

    static func response(_ simulated: ReefSimulatedResponse) -> Response {
        var headers = HTTPFields()
        for (name, value) in simulated.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        let bytes: [UInt8]
        switch simulated.body {
        case .json(let value):
            headers[.contentType] = "application/json"
            bytes = value.encoded()
        case .text(let text):
            headers[.contentType] = "text/plain; charset=utf-8"
            bytes = Array(text.utf8)
        }
        return Response(
            status: .init(code: simulated.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
