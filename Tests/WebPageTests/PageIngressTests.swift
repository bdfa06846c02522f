import BridgeCore
import BridgeTestSupport
import NIOHTTP1
import Synchronization
import Testing
@testable import WebPage

/// Behind Home Assistant's ingress (`bridge.web.ingress`, no password): the Supervisor's
/// requests get the controls under their prefix; nobody else gets them.
@Suite struct PageIngressTests {
    static let supervisor = WebConfiguration.supervisorAddress

    /// A bridge that takes every command and remembers the topics the page handed to it.
    final class Sent: PageCommandPath {
        let topics = Mutex<[String]>([])

        func send(topic: String, payload: [UInt8]) async -> CommandResponse {
            topics.withLock { $0.append(topic) }
            return CommandResponse(result: .success(nil), transaction: nil)
        }

        func isEverydayCommand(_ topic: String) -> Bool { true }
    }

    static func routes(sent: Sent) throws -> PageRoutes {
        let web = try WebConfiguration(
            ConfigSection(.mapping([("enabled", .scalar("true")), ("controls", .scalar("true")), ("ingress", .scalar("true"))])),
            health: HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true"))]))))
        return PageRoutes(configuration: web, activity: PageActivity(baseTopic: "home"), status: { [:] }, bridge: sent)
    }

    static func request(
        _ method: HTTPMethod, _ uri: String, from address: String, headers: [(String, String)] = [], body: String = ""
    ) -> WebRequest {
        WebRequest(head: HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: HTTPHeaders(headers)),
                   body: Array(body.utf8), remoteAddress: address)
    }

    static func response(_ answer: WebAnswer?) -> WebResponse? {
        if case .full(let response)? = answer { return response }
        return nil
    }

    @Test func theSupervisorGetsTheControlsUnderItsPrefixAndNobodyElse() async throws {
        let sent = Sent()
        let routes = try Self.routes(sent: sent)
        let prefix = ("X-Ingress-Path", "/api/hassio_ingress/Zx9-abc_1")
        let page = try #require(Self.response(await routes.answer(Self.request(.GET, "/", from: Self.supervisor, headers: [prefix]))))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(#"<base href="/api/hassio_ingress/Zx9-abc_1/">"#))
        #expect(html.contains(#"<meta name="home2mqtt-controls" content="ingress">"#))
        // "Add to Home Screen" under the prefix: the manifest the base tag points to, its URLs relative to it.
        #expect(html.contains(#"<link rel="manifest" href="manifest.webmanifest""#))
        let manifest = try #require(Self.response(await routes.answer(Self.request(.GET, "/manifest.webmanifest", from: Self.supervisor, headers: [prefix]))))
        #expect(manifest.status == .ok && String(decoding: manifest.body, as: UTF8.self).contains(#""start_url":".","scope":".""#))
        let csrf = try #require(html.firstMatch(of: /name="home2mqtt-csrf" content="([0-9a-f]{64})"/)?.1)

        let command = #"{"topic":"pihole/pause","payload":"30"}"#
        let json = [("Content-Type", "application/json"), ("X-CSRF-Token", String(csrf))]
        // The add-on's listener is on the host network: any other address is refused every path of
        // the page, the read-only ones included; the listener's own paths are not the page's to refuse.
        for path in ["/", "/page.js", "/events", "/manifest.webmanifest"] {
            let elsewhere = try #require(Self.response(await routes.answer(Self.request(.GET, path, from: "192.168.1.20", headers: [prefix]))))
            #expect(elsewhere.status == .forbidden, "\(path)")
            #expect(String(decoding: elsewhere.body, as: UTF8.self).contains("only Home Assistant's ingress"))
        }
        #expect(await routes.answer(Self.request(.GET, "/healthz", from: "192.168.1.20")) == nil)
        #expect(Self.response(await routes.answer(Self.request(.POST, "/command", from: "192.168.1.20", headers: json, body: command)))?.status == .forbidden)
        #expect(Self.response(await routes.answer(Self.request(.POST, "/command", from: Self.supervisor, headers: [json[0]], body: command)))?.status == .forbidden)
        #expect(sent.topics.withLock { $0 }.isEmpty)

        #expect(Self.response(await routes.answer(Self.request(.POST, "/command", from: Self.supervisor, headers: json, body: command)))?.status == .ok)
        #expect(sent.topics.withLock { $0 } == ["home/pihole/pause"])
    }

    @Test func withAPasswordOthersGetTheReadOnlyPageAndItsLogin() async throws {
        let web = try WebConfiguration(
            ConfigSection(.mapping([
                ("enabled", .scalar("true")), ("controls", .scalar("true")), ("ingress", .scalar("true")), ("password", .scalar("hunter2")),
            ])),
            health: HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true"))]))))
        let routes = PageRoutes(
            configuration: web, activity: PageActivity(baseTopic: "home"), status: { [:] }, bridge: Sent())
        let page = try #require(Self.response(await routes.answer(Self.request(.GET, "/", from: "192.168.1.20"))))
        #expect(page.status == .ok && String(decoding: page.body, as: UTF8.self).contains(#"content="login""#))
    }

    @Test func aPageOnAnAddressOthersReachSaysWhatItShowsToThem() throws {
        let capture = LogCapture()
        let web = try WebConfiguration(
            ConfigSection(.mapping([("enabled", .scalar("true"))])),
            health: HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true"))]))))
        for (address, warned) in [("127.0.0.1", false), ("::1", false), ("0.0.0.0", true), ("192.168.1.5", true)] {
            let before = capture.all.count
            let health = try HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true")), ("bind_address", .scalar(address))])))
            PageSetup.warnAboutExposure(web, health: health, logger: capture.logger("test"))
            let lines = capture.all.dropFirst(before)
            #expect(lines.contains { $0.contains("without a login") && $0.contains("last 100 commands") } == warned, "\(address): \(lines)")
        }
        // The add-on's: on 0.0.0.0 through ingress alone, where others are refused: nothing to warn of.
        let before = capture.all.count
        let ingress = try WebConfiguration(
            ConfigSection(.mapping([("enabled", .scalar("true")), ("ingress", .scalar("true"))])),
            health: HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true"))]))))
        let everywhere = try HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true")), ("bind_address", .scalar("0.0.0.0"))])))
        PageSetup.warnAboutExposure(ingress, health: everywhere, logger: capture.logger("test"))
        #expect(capture.all.count == before)
    }
}

/// A page on loopback serves only requests sent to a loopback name (no DNS rebinding).
@Suite struct PageRebindingTests {
    @Test func aPageOnLoopbackRefusesRequestsSentToAnotherName() async throws {
        let web = try WebConfiguration(
            ConfigSection(.mapping([("enabled", .scalar("true"))])),
            health: HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true"))]))))
        let routes = PageRoutes(
            configuration: web, activity: PageActivity(baseTopic: "home"), status: { [:] }, bridge: PageIngressTests.Sent(),
            listensOnLoopback: true)
        for (host, served) in [
            ("127.0.0.1:9134", true), ("localhost:9134", true), ("[::1]:9134", true), ("localhost", true),
            ("attacker.example:9134", false), ("127.0.0.1.attacker.example", false), ("[::1].attacker.example:80", false),
        ] {
            let request = PageIngressTests.request(.GET, "/", from: "127.0.0.1", headers: [("Host", host)])
            #expect((PageIngressTests.response(await routes.answer(request))?.status == .ok) == served, "\(host)")
        }
        let noHost = PageIngressTests.request(.GET, "/", from: "127.0.0.1")
        #expect(PageIngressTests.response(await routes.answer(noHost))?.status == .forbidden)
    }
}
