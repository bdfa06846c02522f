import BridgeCore
import NIOHTTP1
import Testing
@testable import WebPage

/// The page's rules alone: which commands it may send, logins, and whom ingress trusts.
@Suite struct PagePartsTests {
    /// Which commands the controls send is the integrations' (`EverydayCommands`, tested on the
    /// real executable in `PageRequestTests`); the page itself takes only plain topics, so that
    /// a filter's `+` stands for one plain level.
    @Test func theControlsSendOnlyPlainTopics() {
        for topic in ["pihole/pause", "pihole/main/group/kids/set", "unifi/rule/downtime-emma/set", "reef/outlet/return-pump/set"] {
            #expect(PageControls.isPlainTopic(topic), "\(topic)")
        }
        for topic in ["pihole/+/pause", "pihole/#", "pihole//pause", "../pihole/pause", "pihole/main pause/pause", "/pihole/pause",
                      "scene/+/set", "unifi/controller/+/voucher/create", "pihole/pause/", String(repeating: "a", count: 129)] {
            #expect(!PageControls.isPlainTopic(topic), "\(topic)")
        }
    }

    @Test func sessionsExpireAreBoundedAndLoginsAreRateLimited() {
        let sessions = PageSessions(password: "secret")
        let start = ContinuousClock.now
        guard case .session(let first) = sessions.login(password: "secret", now: start) else { Issue.record("no session"); return }
        #expect(sessions.session(first.token, now: start) == first)
        #expect(sessions.session(first.token, now: start + PageSessions.lifetime) == nil)
        #expect(sessions.session("not a token", now: start) == nil)
        for _ in 0..<PageSessions.maximumSessions { _ = sessions.login(password: "secret", now: start) }
        #expect(sessions.session(first.token, now: start) == nil, "the oldest session makes room")

        for _ in 0..<PageSessions.maximumFailures { #expect(sessions.login(password: "secreT", now: start) == .refused) }
        #expect(sessions.login(password: "secret", now: start) == .tooMany)
        guard case .session = sessions.login(password: "secret", now: start + PageSessions.failureWindow + .seconds(1)) else {
            Issue.record("still refused after the window"); return
        }
    }

    @Test func ingressIsTrustedFromTheSupervisorOnly() throws {
        let section = try ConfigSection(.mapping([("enabled", .scalar("true")), ("controls", .scalar("true")), ("ingress", .scalar("true"))]), path: "bridge.web")
        let health = try HealthConfiguration(ConfigSection(.mapping([("enabled", .scalar("true"))]), path: "bridge.health"))
        let trust = RequestTrust(configuration: try WebConfiguration(section, health: health), ingressToken: "t")
        func request(from address: String, path: String) -> WebRequest {
            WebRequest(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: ["X-Ingress-Path": path]),
                       body: [], remoteAddress: address)
        }
        #expect(trust.ingressPath(request(from: "172.30.32.2", path: "/api/hassio_ingress/abc-DEF_1")) == "/api/hassio_ingress/abc-DEF_1")
        #expect(trust.ingressPath(request(from: "172.30.32.3", path: "/api/hassio_ingress/abc")) == nil)
        #expect(trust.ingressPath(request(from: "172.30.32.2", path: #"/x"><script>"#)) == nil)
        #expect(!trust.isIngress(request(from: "127.0.0.1", path: "/")))
    }
}
