/// The requests a simulator keeps for tests to read back: the newest `capacity` of them, in order.
///
/// A test sends a few hundred requests at most and reads them all; the demo and the benchmark run
/// the same simulators for hours or for 100,000 commands, and a record of every request grew
/// their memory without bound (about 2 KiB a request). A ring keeps what tests read and bounds
/// the rest; `total` still counts every request, for the benchmark's upstream economy.
public struct RequestLog: Sendable {
    /// Far more than any test sends, and a few MiB at most.
    public static let defaultCapacity = 10_000

    public let capacity: Int
    /// Every request appended since the start or the last `removeAll()`, kept or not.
    public private(set) var total = 0
    private var ring: [RecordedRequest] = []
    /// Where the next request goes once the ring is full: the oldest one kept.
    private var oldest = 0

    public init(capacity: Int = defaultCapacity) {
        precondition(capacity > 0, "a request log keeps at least one request")
        self.capacity = capacity
    }

    public mutating func append(_ request: RecordedRequest) {
        total += 1
        if ring.count < capacity {
            ring.append(request)
        } else {
            ring[oldest] = request
            oldest = (oldest + 1) % capacity
        }
    }

    /// The requests kept, oldest first.
    public var requests: [RecordedRequest] { Array(ring[oldest...] + ring[..<oldest]) }

    public mutating func removeAll() {
        ring.removeAll()
        oldest = 0
        total = 0
    }
}
