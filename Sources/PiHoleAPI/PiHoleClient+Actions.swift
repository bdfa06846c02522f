#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import Synchronization

extension PiHoleClient {
    /// `POST /api/action/gravity`: updates the blocklists and answers once the run has ended.
    ///
    /// FTL streams the script's output as `text/plain` while it runs (minutes on a real
    /// Pi-hole), so `timeout` bounds the whole run instead of the connection's request timeout.
    /// Only the tail and the failures of the output are kept.
    public func runGravity(timeout: Duration) async throws -> PiHoleGravityResult {
        let output = GravityOutputCollector()
        let response = try await authenticated(
            .POST, "/api/action/gravity", timeout: timeout, streamingSuccessBodyTo: output.append)
        guard response.isSuccess else { throw mapFailure(response) }
        return output.result
    }

    /// `POST /api/action/restartdns`. 403 `.forbidden` while `webserver.api.allow_destructive` is off.
    public func restartDNS() async throws {
        try await action("/api/action/restartdns", what: "DNS restart result")
    }

    /// `POST /api/action/flush/logs`: empties the last 24 hours of the query log.
    /// 403 `.forbidden` while `webserver.api.allow_destructive` is off.
    public func flushLogs() async throws {
        try await action("/api/action/flush/logs", what: "log flush result")
    }

    /// A `POST` answered `{"status":"success"}` (common.yaml `success`).
    private func action(_ path: String, what: String) async throws {
        let response = try await authenticated(.POST, path)
        _ = try decodeSuccess(PiHoleWire.StatusResponse.self, response, what: what)
    }
}

/// A ``PiHoleGravityOutput`` the streaming body reader can feed from its own task.
private final class GravityOutputCollector: Sendable {
    // Chunks arrive one after another; the lock only makes the hand-over to the caller safe.
    private let output = Mutex(PiHoleGravityOutput())

    @Sendable func append(_ chunk: ByteBuffer) {
        output.withLock { $0.append(chunk.readableBytesView) }
    }

    var result: PiHoleGravityResult { output.withLock { $0.result } }
}
