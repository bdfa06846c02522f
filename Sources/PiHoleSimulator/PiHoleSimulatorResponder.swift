import NIOConcurrencyHelpers
import PlainText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore
import SimulatorSupport

/// Bridges Hummingbird requests to ``PiHoleSimulatorEngine``: records, applies faults,
/// runs the engine under the lock, delays outside it.
struct PiHoleSimulatorResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let core: NIOLockedValueBox<SimulatorState>
    let clock: PiHoleSimulatorClock

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let bodyBuffer = try await request.collectBody(upTo: 1 << 20)
        let bodyData = Data(bodyBuffer.readableBytesView)

        let recorded = PiHoleSimulator.RecordedRequest(request, body: bodyData)
        let simulated = SimulatedRequest(
            method: request.method.rawValue,
            segments: recorded.pathSegments,
            queryItems: Self.parseQuery(recorded.query),
            headers: recorded.headers,
            body: bodyData)

        let now = clock.now()
        let (fault, outcome): (PiHoleSimulator.Fault?, SimulatedResponse?) = core.withLockedValue { state in
            state.requests.append(recorded)
            switch state.fault {
            case .serverError, .dropConnections:
                return (state.fault, nil)
            case .loseLoginAnswers(let count) where simulated.method == "POST" && simulated.segments == ["api", "auth"]:
                state.fault = count > 1 ? .loseLoginAnswers(count - 1) : nil
                _ = PiHoleSimulatorEngine.handle(simulated, state: &state, now: now)
                return (.dropConnections, nil)
            default:
                return (state.fault, PiHoleSimulatorEngine.handle(simulated, state: &state, now: now))
            }
        }

        if case .delay(let delay) = fault { try await Task.sleep(for: delay) }
        switch fault {
        case .dropConnections:
            return .droppedConnection()
        case .serverError:
            return Self.response(.error(500, key: "internal_error", message: "Internal server error (simulated)"))
        default:
            break
        }
        guard let outcome else { return Self.response(.notFound) }
        if outcome.delay > .zero { try await Task.sleep(for: outcome.delay) }
        if let stream = outcome.stream { return streamed(stream, status: outcome.status) }
        return Self.response(outcome)
    }

    /// A chunked response written over time; `stream.ended` is applied before the last chunk
    /// closes the body, so a client that has read to the end sees its effect.
    func streamed(_ stream: SimulatedStream, status: Int) -> Response {
        let (core, clock) = (core, clock)
        return Response(
            status: .init(code: status), headers: [.contentType: stream.contentType],
            body: .init { writer in
                do {
                    for chunk in stream.chunks {
                        try await Task.sleep(for: stream.interval)
                        try await writer.write(ByteBuffer(bytes: chunk))
                    }
                } catch {
                    core.withLockedValue { stream.ended(&$0, clock.now()) }
                    throw error
                }
                core.withLockedValue { stream.ended(&$0, clock.now()) }
                try await writer.finish(nil)
            })
    }

    static func response(_ simulated: SimulatedResponse) -> Response {
        var headers = HTTPFields()
        guard let body = simulated.body else {
            return Response(status: .init(code: simulated.status), headers: headers, body: .init())
        }
        headers[.contentType] = "application/json; charset=utf-8"
        let data = body.encoded()
        return Response(
            status: .init(code: simulated.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func parseQuery(_ query: String?) -> [String: String] {
        guard let query else { return [:] }
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacing("+", with: " ").percentDecoded ?? String($0)
            }
            guard let key = parts.first else { continue }
            items[key] = parts.count > 1 ? parts[1] : ""
        }
        return items
    }
}
