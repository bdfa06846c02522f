import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/api/action/gravity`, `/api/action/restartdns`, `/api/action/flush/logs` (POST only).
extension PiHoleSimulatorEngine {
    /// `nil` for an unknown action.
    static func actionEndpoint(
        _ request: SimulatedRequest, path: [String], now: Date
    ) -> ((inout SimulatorState) -> SimulatedResponse)? {
        switch path {
        case ["gravity"]:
            return { state in gravity(request, state: &state) }
        case ["restartdns"]:
            return { state in destructive(&state, refusal: "Restarting DNS is not allowed") { $0.dnsRestarts += 1 } }
        case ["flush", "logs"]:
            return { state in
                destructive(&state, refusal: "Flushing the logs is not allowed") {
                    $0.logFlushes += 1
                    $0.queryLog.flushRecent(now: now)
                }
            }
        default:
            return nil
        }
    }

    /// FTL refuses restartdns and the flushes with 403 while `allow_destructive` is off
    /// (gravity is not guarded).
    static func destructive(
        _ state: inout SimulatorState, refusal: String, _ perform: (inout SimulatorState) -> Void
    ) -> SimulatedResponse {
        guard state.allowDestructive else {
            return .error(403, key: "forbidden", message: refusal, hint: "Check setting webserver.api.allow_destructive")
        }
        perform(&state)
        return .json(200, ["status": "success"])
    }

    /// Streams the run's output over `runDuration`. FTL relays what it reads from the script's
    /// pipe, so chunks split lines anywhere: each line goes out in two halves, cut mid-character
    /// where it falls. FTL forks one script per request with no lock, so runs may overlap.
    static func gravity(_ request: SimulatedRequest, state: inout SimulatorState) -> SimulatedResponse {
        state.gravity.runsStarted += 1
        let lines = SimulatedGravity.output(
            domains: state.gravity.domains, fails: state.gravity.runFails, color: request.queryItems["color"] == "true")
        let chunks = lines.flatMap { line -> [[UInt8]] in
            let bytes = Array((line + "\n").utf8)
            return [Array(bytes[..<(bytes.count / 2)]), Array(bytes[(bytes.count / 2)...])]
        }
        let stream = SimulatedStream(
            contentType: "text/plain", chunks: chunks, interval: state.gravity.runDuration / chunks.count
        ) { state, now in
            state.gravity.runsFinished += 1
            state.gravity.lastUpdate = now
        }
        return SimulatedResponse(status: 200, body: nil, stream: stream)
    }
}
