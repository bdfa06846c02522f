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

    @Test func routesOnThePathsSegmentsDecodedWithTheQueryApart() {
        let recorded = request("//api/outlets/caf%C3%A9%20x//bad%zz/?limit=5&x=%2F")
        #expect(recorded.pathSegments == ["api", "outlets", "café x", "bad%zz"])
        #expect(recorded.path == "//api/outlets/caf%C3%A9%20x//bad%zz/")
        #expect(recorded.query == "limit=5&x=%2F")
        #expect(request("/").pathSegments == [])
        #expect(request("/a?").query == "")
    }

    @Test func readsHeadersByTheirLowercaseNameJoiningRepeats() {
        let fields: HTTPFields = [.init("X-API-Key")!: "k1", .init("x-api-key")!: "k2", .contentType: "application/json"]
        let recorded = RecordedRequest(
            Request(head: .init(method: .post, scheme: "http", authority: "127.0.0.1", path: "/", headerFields: fields), body: .init(buffer: .init())),
            body: Array("{}".utf8))
        #expect(recorded.headers == ["x-api-key": "k1, k2", "content-type": "application/json"])
        #expect(recorded.header("Content-Type") == "application/json")
        #expect(recorded.body == "{}")
    }
}
