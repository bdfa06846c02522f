import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The connection of one page's event stream. Bounded: when more than `maximumPending` bytes
/// wait to be written (a client that reads too slowly, or not at all), the client is dropped,
/// never buffered for without end; the page reconnects and starts again from a snapshot.
public final class EventStreamChannel: Sendable {
    public static let maximumPending = 1 << 20

    private let channel: any Channel
    /// Bytes written to the channel and not yet on the wire, beyond the first event's (the
    /// snapshot, however large, is allowed once).
    private let pending = NIOLockedValueBox((bytes: 0, allowance: 0, isFirst: true))

    init(_ channel: any Channel) {
        self.channel = channel
    }

    public var closeFuture: EventLoopFuture<Void> { channel.closeFuture }
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// Writes one server-sent event, or drops the client when too much waits for it already.
    public func send(_ name: String, _ data: String) {
        let text = "event: \(name)\ndata: \(data)\n\n"
        let size = text.utf8.count
        let admitted = pending.withLockedValue { pending in
            if pending.isFirst {
                pending.isFirst = false
                pending.allowance = size
            }
            guard pending.bytes + size <= Self.maximumPending + pending.allowance else { return false }
            pending.bytes += size
            return true
        }
        guard admitted else {
            channel.close(promise: nil)
            return
        }
        let buffer = channel.allocator.buffer(string: text)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).whenComplete { [pending] _ in
            pending.withLockedValue { $0.bytes -= size }
        }
    }

    public func close() {
        channel.close(promise: nil)
    }
}
