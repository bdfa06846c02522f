import AllUpstreamsTestSupport
import BridgeTestSupport
import Foundation
import JSONDocument
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// The page's HTTP side on the real executable: what is refused, and that a refused request is
/// carried out nowhere; what is allowed goes the way an MQTT command goes.
@Suite struct PageRequestTests {
    static let json = [("Content-Type", "application/json")]
    static let pause = #"{"topic":"pihole/pause","payload":"30"}"#

    @Test func readOnlyPageShowsTheStateAndRefusesEveryControl() async throws {
        try await AllUpstreams.run { upstreams in
            let page = try await PageBridge.start(upstreams, web: "")
            let html = try await page.request(.GET, "/")
            #expect(html.status == 200)
            #expect(html.body.contains(#"<meta name="home2mqtt-controls" content="off">"#))
            #expect(html.headers.first(name: "Content-Security-Policy")?.contains("script-src 'self'") == true)
            #expect(!html.body.contains(#"href="/"#) && !html.body.contains(#"src="/"#), "a link that is not relative")
            #expect(try await page.request(.GET, "/page.js").body.contains("EventSource('events')"))
            #expect(try await page.request(.GET, "/healthz").status == 200)
            #expect(html.body.contains(#"<link rel="icon" href="favicon.svg""#))
            for path in ["/favicon.svg", "/favicon.ico"] {
                let icon = try await page.request(.GET, path)
                #expect(icon.status == 200 && icon.headers.first(name: "Content-Type") == "image/svg+xml" && icon.body.hasPrefix("<svg"), "\(path)")
            }
            // "Add to Home Screen": the manifest, linked relatively and sent with its cookies (ingress).
            #expect(html.body.contains(#"<link rel="manifest" href="manifest.webmanifest" crossorigin="use-credentials">"#))
            let manifest = try await page.request(.GET, "/manifest.webmanifest")
            #expect(manifest.status == 200 && manifest.headers.first(name: "Content-Type") == "application/manifest+json")
            let app = try #require(JSONValue.parse(Array(manifest.body.utf8)))
            #expect(app["start_url"] == "." && app["display"] == "standalone" && app["icons"]?.arrayValue?.first?["src"] == "favicon.svg")
            // Every answer, not only the page's, says nosniff and sends no referrer; those without a
            // policy of their own load nothing.
            let answers = [
                ("/", try await page.request(.GET, "/")), ("/healthz", try await page.request(.GET, "/healthz")),
                ("/metrics", try await page.request(.GET, "/metrics")),
                ("POST /login", try await page.request(.POST, "/login", headers: Self.json, body: #"{"password":"x"}"#)),
                ("a path that is none", try await page.request(.GET, "/nothing-here")),
            ]
            for (what, answer) in answers {
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(what)")
                #expect(answer.headers.first(name: "Referrer-Policy") == "no-referrer", "\(what)")
                #expect(answer.headers[canonicalForm: "Content-Security-Policy"].count == 1, "\(what)")
            }
            #expect(answers[1].1.headers.first(name: "Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")

            #expect(try await page.request(.POST, "/command", headers: Self.json, body: Self.pause).status == 404)
            #expect(try await page.request(.POST, "/login", headers: Self.json, body: #"{"password":"x"}"#).status == 404)
            try await Task.sleep(for: .milliseconds(500))
            #expect(upstreams.piHole.pauseCalls.isEmpty)
            try await page.stop()
        }
    }

    @Test func controlsNeedALoginTheirTokenAndTheSameSite() async throws {
        try await AllUpstreams.run { upstreams in
            let page = try await PageBridge.start(upstreams, web: "    controls: true\n    password: open sesame")
            let html = try await page.request(.GET, "/")
            #expect(html.body.contains(#"<meta name="home2mqtt-controls" content="login">"#))

            #expect(try await page.request(.POST, "/command", headers: Self.json, body: Self.pause).status == 401)
            #expect(try await page.login("wrong") == nil)
            let login = try #require(try await page.login("open sesame"))
            let setCookie = try await page.request(.POST, "/login", headers: Self.json, body: #"{"password":"open sesame"}"#)
                .headers.first(name: "Set-Cookie") ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
            let session = Self.json + [("Cookie", login.cookie)]
            let token = [("X-CSRF-Token", login.csrf)]
            let refused: [(String, [(String, String)], String)] = [
                ("no CSRF token", session, Self.pause),
                ("a wrong CSRF token", session + [("X-CSRF-Token", String(login.csrf.reversed()))], Self.pause),
                ("another site's Origin", session + token + [("Origin", "http://attacker.example")], Self.pause),
                ("a cross-site fetch", session + token + [("Sec-Fetch-Site", "cross-site")], Self.pause),
                ("a form's content type", [("Content-Type", "text/plain"), ("Cookie", login.cookie)] + token, Self.pause),
                ("a wildcard", session + token, #"{"topic":"pihole/+/pause","payload":"30"}"#),
            ] + [
                "pihole/action/flush_logs", "pihole/main/action/gravity", "pihole/domains/deny/add", "unifi/refresh", "reef/outlet/a/b/set",
                "bridge/request/reload", "unifi/voucher/revoke", "unifi/controller/home/voucher/revoke",
                "unifi/controller/home/voucher/preset/60", "unifi/voucher/create/x", "reef/feed/start", "pihole/main/client/kids/pause",
            ].map { ("a command the page does not send: \($0)", session + token, #"{"topic":"\#($0)","payload":"30"}"#) }
            for (what, headers, body) in refused {
                let status = try await page.request(.POST, "/command", headers: headers, body: body).status
                #expect(status >= 400 && status < 500, "\(what) answered \(status)")
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(upstreams.piHole.pauseCalls.isEmpty)
            #expect(!upstreams.piHole.requests.contains { $0.path.contains("action") })

            // With all three: the same command and answer as over MQTT, counted the same.
            let answer = try await page.request(.POST, "/command", headers: session + token, body: Self.pause)
            #expect(answer.status == 200)
            let response = try #require(JSONValue.parse(Array(answer.body.utf8)))
            #expect(response["status"] == "ok")
            #expect(response["data"]?["main"]?["blocking"] == "disabled")
            #expect(upstreams.piHole.pauseCalls.map(\.seconds) == [30])
            let metrics = try await page.request(.GET, "/metrics").body
            #expect(metrics.contains(#"home2mqtt_commands_succeeded_total{integration="pihole",command="pause"} 1"#))
            // The other integrations' everyday commands pass too; what they answer is theirs.
            for (topic, payload) in [("unifi/rule/downtime-emma/set", "ON"), ("reef/outlet/heater/set", "ON")] {
                let passed = try await page.request(
                    .POST, "/command", headers: session + token, body: #"{"topic":"\#(topic)","payload":"\#(payload)"}"#)
                #expect(passed.status == 200 && JSONValue.parse(Array(passed.body.utf8))?["status"] != nil, "\(topic): \(passed.body)")
            }

            // Logged out, the cookie is worth nothing.
            #expect(try await page.request(.POST, "/logout", headers: session, body: "{}").status == 200)
            #expect(try await page.request(.POST, "/command", headers: session + token, body: Self.pause).status == 401)
            #expect(upstreams.piHole.pauseCalls.count == 1)
            try await page.stop()
        }
    }

    @Test func failedLoginsAreRateLimited() async throws {
        try await AllUpstreams.run { upstreams in
            let page = try await PageBridge.start(upstreams, web: "    controls: true\n    password: open sesame")
            for _ in 0..<5 {
                #expect(try await page.request(.POST, "/login", headers: Self.json, body: #"{"password":"guess"}"#).status == 401)
            }
            // The right password too, until a minute has passed.
            #expect(try await page.request(.POST, "/login", headers: Self.json, body: #"{"password":"open sesame"}"#).status == 429)
            try await page.stop()
        }
    }

    @Test func configurationMistakesNameTheirKey() async throws {
        let cases: [(String, String)] = [
            ("bridge:\n  web:\n    enabled: true\n", "bridge.web.enabled: needs bridge.health.enabled"),
            ("bridge:\n  health:\n    enabled: true\n  web:\n    enabled: true\n    controls: true\n", "bridge.web.controls: needs bridge.web.password"),
            ("bridge:\n  health:\n    enabled: true\n  web:\n    enabled: true\n    password: a\n    password_file: /etc/hostname\n",
             "bridge.web.password_file: conflicts with 'password'"),
        ]
        for (yaml, expected) in cases {
            let config = try BridgeProcess.writeConfig("pihole:\n  instances:\n    - id: main\n      url: http://127.0.0.1:1\n      password: x\n" + yaml)
            let result = try await BridgeProcess(["check-config", "--config", config]).finish()
            #expect(result.status != 0)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }
}
