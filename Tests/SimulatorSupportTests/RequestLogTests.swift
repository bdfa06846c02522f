import Hummingbird
import SimulatorSupport
import Testing

@Suite struct RequestLogTests {
    private func request(_ path: String) -> RecordedRequest {
        RecordedRequest(Request(head: .init(method: .get, scheme: "http", authority: "127.0.0.1", path: path), body: .init(buffer: .init())), body: [])
    }

    @Test func keepsEveryRequestUpToItsCapacity() {
        var log = RequestLog(capacity: 3)
        log.append(request("/a"))
        log.append(request("/b"))
        #expect(log.requests.map(\.path) == ["/a", "/b"])
        #expect(log.total == 2)
    }

    @Test func dropsTheOldestOnceFullAndStillCountsThem() {
        var log = RequestLog(capacity: 3)
        for path in ["/a", "/b", "/c", "/d", "/e"] { log.append(request(path)) }
        #expect(log.requests.map(\.path) == ["/c", "/d", "/e"])
        #expect(log.total == 5)
    }

    @Test func removeAllStartsOver() {
        var log = RequestLog(capacity: 2)
        for path in ["/a", "/b", "/c"] { log.append(request(path)) }
        log.removeAll()
        log.append(request("/d"))
        #expect(log.requests.map(\.path) == ["/d"])
        #expect(log.total == 1)
    }
}
