import BridgeRuntime
import NIOCore
import NIOHTTP1

/// A successful answer's body handed over chunk by chunk as it arrives (a gravity run's output),
/// instead of being collected.
public typealias ResponseBodyChunks = @Sendable (ByteBuffer) -> Void

/// One request and the answer it is waiting for, from the moment it is asked for until it is
/// answered, failed, timed out or cancelled: whichever comes first settles it, once.
///
/// Confined to the client's event loop: every method runs there. (`@unchecked Sendable` so that a
/// cancellation handler can carry it to the loop, where alone it is touched.)
final class Exchange: @unchecked Sendable {
    let target: RequestTarget
    let head: HTTPRequestHead
    let body: ByteBuffer?
    let maxBodySize: Int
    let successBodyTo: ResponseBodyChunks?
    private let loop: any EventLoop
    /// Where the outcome goes: set by `begin`. Settled before that (cancelled at once), the
    /// outcome waits in `early`.
    private var deliver: ((Result<CollectedResponse, any Error>) -> Void)?
    private var early: Result<CollectedResponse, any Error>?
    private(set) var isSettled = false
    private var deadline: ClockAlarm?
    /// The connection carrying it, once it has one: what a timeout or a cancellation closes.
    var connection: (any Channel)?
    /// Whether that connection had carried an exchange before this one (a kept-alive one, which
    /// the server may be closing just as the request goes out).
    var isOnReusedConnection = false
    /// Whether it was sent again on a fresh connection after its kept-alive one failed.
    private(set) var wasRetried = false

    // The answer as it arrives.
    private var responseHead: HTTPResponseHead?
    private var collected: ByteBuffer?
    private var streaming = false

    init(target: RequestTarget, head: HTTPRequestHead, body: ByteBuffer?, maxBodySize: Int, successBodyTo: ResponseBodyChunks?, loop: any EventLoop) {
        self.target = target
        self.head = head
        self.body = body
        self.maxBodySize = maxBodySize
        self.successBodyTo = successBodyTo
        self.loop = loop
    }

    /// From here on the outcome goes to `deliver`. - Returns: false when it is already settled
    /// (cancelled before it began), and so delivered at once.
    func begin(deliver: @escaping (Result<CollectedResponse, any Error>) -> Void) -> Bool {
        if let early {
            deliver(early)
            return false
        }
        self.deliver = deliver
        return true
    }

    /// The whole exchange, connecting included, within `timeout` on `clock`: then it fails and
    /// its connection is closed (a connection with half an answer on it is of no further use).
    func startDeadline(_ timeout: Duration, on clock: any BridgeClock) {
        deadline = clock.alarm(at: clock.now + timeout, .request) { [self, loop] in
            // The system clock fires on this loop; a test's clock on the task that moves it.
            if loop.inEventLoop {
                expire(after: timeout)
            } else {
                loop.execute { self.expire(after: timeout) }
            }
        }
    }

    private func expire(after timeout: Duration) {
        let connection = connection
        settle(.failure(UpstreamError(.timedOut, "no complete answer within \(timeout)")))
        connection?.close(promise: nil)
    }

    /// Delivers `result` unless something else already settled the exchange.
    func settle(_ result: Result<CollectedResponse, any Error>) {
        guard !isSettled else { return }
        isSettled = true
        deadline?.cancel()
        deadline = nil
        if let deliver {
            self.deliver = nil
            deliver(result)
        } else {
            early = result
        }
    }

    /// The calling task was cancelled: the exchange fails at once, and a connection carrying it
    /// is closed, so that nothing more of it is sent or read.
    func cancel() {
        let connection = connection
        settle(.failure(CancellationError()))
        connection?.close(promise: nil)
    }

    /// Feeds a part of the answer. - Returns: whether the answer is complete and whole.
    func receive(_ part: HTTPClientResponsePart) throws(UpstreamError) -> Bool {
        switch part {
        case .head(let head):
            responseHead = head
            streaming = successBodyTo != nil && (200..<300).contains(head.status.code)
            if !streaming, let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBodySize {
                throw UpstreamError(.bodyTooLarge, "answer larger than \(maxBodySize) bytes (\(length))")
            }
        case .body(var chunk):
            if streaming {
                successBodyTo?(chunk)
            } else if collected == nil {
                collected = chunk
            } else {
                collected!.writeBuffer(&chunk)
            }
            if let collected, collected.readableBytes > maxBodySize {
                throw UpstreamError(.bodyTooLarge, "answer larger than \(maxBodySize) bytes")
            }
        case .end:
            guard let responseHead else { throw UpstreamError(.connectionClosed, "an answer ended before its head") }
            settle(.success(CollectedResponse(status: responseHead.status, headers: responseHead.headers, body: collected ?? ByteBuffer())))
            return true
        }
        return false
    }

    /// Whether it may be sent again on a fresh connection now that its connection failed: a request
    /// of an idempotent method (RFC 9110 §9.2.2) that failed on a kept-alive connection before any
    /// answer came, which is what a server closing an idle connection as the request arrives looks
    /// like. Once only: a second failure is the server's answer.
    var mayRetryOnFreshConnection: Bool {
        !isSettled && !wasRetried && isOnReusedConnection && responseHead == nil && head.method.isIdempotent
    }

    /// It is sent again, on a fresh connection.
    func retryOnFreshConnection() {
        wasRetried = true
        connection = nil
    }

    /// Whether the connection may carry another exchange after this one's answer.
    var keepsConnectionAlive: Bool { head.isKeepAlive && responseHead?.isKeepAlive == true }
}

extension HTTPMethod {
    /// Sending it twice has the effect of sending it once (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        switch self {
        case .GET, .HEAD, .PUT, .DELETE, .OPTIONS, .TRACE: true
        default: false
        }
    }
}
