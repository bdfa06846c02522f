import BridgeCore
import NIOHTTP1
import Testing
@testable import WebPage

/// The page's rules alone: which commands it may send, logins, and whom ingress trusts.
@Suite struct PagePartsTests {
    @Test func theControlsSendOnlyTheirOwnCommands() {
        for topic in ["pihole/pause", "pihole/resume", "pihole/main/pause", "pihole/group/kids/set", "pihole/main/group/kids/set",
                      "unifi/rule/downtime-emma/set", "reef/outlet/return-pump/set", "scene/bedtime/set",
                      "unifi/voucher/create", "unifi/controller/home/voucher/create"] {
            #expect(PageControls.allows(topic), "\(topic)")
        }
        for topic in ["pihole/action/gravity", "pihole/domains/deny/add", "pihole/+/pause", "pihole/#", "unifi/refresh",
                      "reef/outlet/a/b/set", "pihole//pause", "../pihole/pause", "pihole/main pause/pause", "bridge/request/reload",
                      "scene/bedtime", "scene/+/set", "unifi/voucher/revoke", "unifi/controller/home/voucher/revoke",
                      "unifi/controller/home/voucher/preset/60", "unifi/voucher/create/x", "unifi/controller/+/voucher/create"] {
            #expect(!PageControls.allows(topic), "\(topic)")
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
