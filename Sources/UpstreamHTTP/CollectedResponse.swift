import NIOCore
import NIOHTTP1

/// An upstream's answer with the whole of its body.
public struct CollectedResponse: Sendable {
    public let status: HTTPResponseStatus
    public let headers: HTTPHeaders
    public let body: ByteBuffer
}
