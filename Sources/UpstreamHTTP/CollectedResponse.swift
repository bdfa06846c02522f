import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// An upstream's answer with the whole of its body.
public struct CollectedResponse: Sendable {
    public let status: HTTPResponseStatus
    public let headers: HTTPHeaders
    public let body: ByteBuffer
}

extension HTTPClient {
    /// One exchange: the answer and the whole of its body within `timeout`, cancelled with the
    /// calling task (which then throws `CancellationError`).
    ///
    /// Through AsyncHTTPClient's future-based API: its async `execute` starts an unstructured
    /// task for every request (to register the request for cancellation), and that task runs on
    /// the global executor, beside the bridge's loop: two thread wake-ups more for every command.
    ///
    /// On the caller's executor (`nonisolated(nonsending)`), waiting on its own continuation
    /// rather than NIO's `get()`: called from an actor (each upstream's client is one), a
    /// nonisolated function and `get()` would each leave the actor and come back, two jobs more
    /// on the event loop for every request (issue 10).
    public nonisolated(nonsending) func collect(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders, body: ByteBuffer?, timeout: Duration, maxBodySize: Int
    ) async throws -> CollectedResponse {
        // On the loop that holds a kept-alive connection, `execute` writes the request before a
        // cancellation handler could stop it: a poll cancelled at shutdown sent each of its
        // remaining reads, and the upstream could log them after the logout.
        try _Concurrency.Task.checkCancellation()
        let request = try ParsedRequests.request(method, url, headers: headers, body: body.map { .byteBuffer($0) })
        let task = execute(
            request: request, delegate: ResponseAccumulator(request: request, maxBodySize: maxBodySize),
            deadline: .now() + timeout.timeAmount)
        do {
            let response = try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    task.futureResult.whenComplete { continuation.resume(with: $0) }
                }
            } onCancel: {
                task.cancel()
            }
            return CollectedResponse(status: response.status, headers: response.headers, body: response.body ?? ByteBuffer())
        } catch {
            try _Concurrency.Task.checkCancellation()
            throw error
        }
    }
}
