import AllUpstreamsTestSupport
import BellasReefSimulator
import BridgeTestSupport
import Foundation
import JSONDocument
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing
import WebDriverTestSupport

/// The page (`bridge.web`) in headless Chromium, against the real executable and the three
/// simulators: what a person sees and clicks. With `HOME2MQTT_PAGE_SCREENSHOTS=1` the run
/// writes docs/images/page*.png.
@Suite(.serialized) struct PageInBrowserTests {
    static let password = "aquarium at night"

    /// Everything the test needs at once: the simulators, the bridge with its page, a browser.
    static func withPage(
        web: String = "    controls: true\n    password: \(password)", sections: String = "",
        prepare: (AllUpstreams) -> Void = { _ in }, phone: Bool = false,
        _ body: (AllUpstreams, PageBridge, WebDriver) async throws -> Void
    ) async throws {
        try await AllUpstreams.run { upstreams in
            prepare(upstreams)
            let page = try await PageBridge.start(upstreams, web: web, sections: sections)
            let browser = try await (phone ? WebDriver.start(width: 390, height: 844, phone: true) : WebDriver.start(height: 2000))
            do {
                try await body(upstreams, page, browser)
            } catch {
                await browser.quit()
                try? await page.stop()
                throw error
            }
            await browser.quit()
            try await page.stop()
        }
    }

    @Test func showsEveryIntegrationAndAnUpstreamChangeWithoutAReload() async throws {
        try await Self.withPage { upstreams, page, browser in
            try await browser.navigate(page.url)
            try await browser.waitFor("every integration on the page", """
                return !!document.querySelector('.card[data-pihole="main"]')
                  && !!document.querySelector('#unifi tr[data-rule="downtime-emma"]')
                  && !!document.querySelector('#outlets tr[data-outlet="heater"]')
                  && document.querySelectorAll('#probes tbody tr').length === 2
                  && ['pihole', 'unifi', 'reef'].every(name => document.querySelector(`#upstream-table tr[data-integration="${name}"]`))
                """)
            let text = try await browser.bodyText()
            for shown in ["Return Pump", "Heater", "Display Tank", "downtime-emma", "Downtime Leo", "pi-main", "reconnects"] {
                #expect(text.contains(shown), "\(shown) not on the page:\n\(text)")
            }
            // No controls without a login; the login form instead.
            #expect(try await browser.execute("return document.querySelector('#login').hidden") == false)
            #expect(try await browser.execute("return getComputedStyle(document.querySelector('.card-controls')).display") == "none")
            try await Self.screenshot(browser, "page")

            // The Pi-hole is switched off behind the bridge's back: the page follows, unreloaded.
            try await browser.execute("window.unreloaded = true")
            upstreams.piHole.setBlocking(enabled: false, timer: nil)
            try await browser.waitFor("the Pi-hole's new state", """
                return document.querySelector('.card[data-pihole="main"] .badge').textContent === 'disabled'
                """)
            #expect(try await browser.execute("return window.unreloaded === true") == true)
            // Nothing in the console: no failed load (a missing favicon was one), no refused script.
            let console = try await browser.consoleMessages()
            #expect(console == [], "\(console)")
        }
    }

    @Test func pauseAndSwitchesFromThePageShowTheirCountdowns() async throws {
        try await Self.withPage { upstreams, page, browser in
            // A group made on the Pi-hole, read at once (refresh over MQTT, which the list shows too).
            #expect(upstreams.piHole.addGroup(name: "Kids", comment: "the children's tablets"))
            #expect(try await page.observer.command("home/pihole/refresh")["status"] == "ok")
            try await browser.navigate(page.url)
            try await browser.waitFor("the Pi-hole's card", "return !!document.querySelector('.card[data-pihole=\"main\"]')")
            try await browser.type(Self.password, into: "#password")
            try await browser.click("#login button")
            try await browser.waitFor("the controls", "return document.body.classList.contains('controls-ready')")

            // Measured in the browser, from the click to the countdown on screen.
            try await browser.execute("""
                window.countdownAfter = null;
                const card = () => document.querySelector('.card[data-pihole="main"]');
                const started = performance.now();
                new MutationObserver((_, observer) => {
                  const countdown = card()?.querySelector('.countdown');
                  if (countdown && /resumes in/.test(countdown.textContent)) { window.countdownAfter = performance.now() - started; observer.disconnect(); }
                }).observe(document.querySelector('#pihole'), { childList: true, subtree: true, characterData: true });
                card().querySelector('button[data-payload="30"]').click();
                """)
            try await browser.waitFor("the countdown", "return window.countdownAfter !== null")
            let after = try await browser.execute("return window.countdownAfter").numberValue ?? .infinity
            #expect(after < 1000, "the countdown showed \(after) ms after the click")
            #expect(upstreams.piHole.pauseCalls.map(\.seconds) == [30])
            #expect(upstreams.piHole.blocking == .disabled)
            let countdown = try await browser.execute(
                "return document.querySelector('.card[data-pihole=\"main\"] .countdown').textContent").stringValue ?? ""
            #expect(countdown.wholeMatch(of: /resumes in (2\d|3[01]) s/) != nil, "\(countdown)")
            // The command and its outcome in the list, the answer as an MQTT client got it on demand.
            try await browser.waitFor("the command in the list", """
                return [...document.querySelectorAll('#commands tbody tr')].some(row => row.textContent.includes('home/pihole/main/pause')
                  && row.querySelector('td.outcome summary')?.textContent.trim() === 'ok'
                  && row.querySelector('td.outcome details code')?.textContent.includes('"status":"ok"'))
                """)
            // An error reads as its code and words.
            #expect(try await page.observer.command("home/pihole/attic/pause")["code"] == "unknown_target")
            try await browser.waitFor("the error in the list", """
                return [...document.querySelectorAll('#commands tbody tr td.outcome summary')]
                  .some(summary => summary.textContent.trim() === "error unknown_target: unknown Pi-hole 'attic' (configured: main)")
                """)

            // Switches "for" a while: the group and the outlet off for 10 minutes, the rule on for an hour.
            try await browser.type("600", into: #"tr[data-group="kids"] input.for"#)
            try await browser.click(#"tr[data-group="kids"] button[data-value="off"]"#)
            try await browser.waitFor("the group's restore", """
                return /on in (9:5|10:00)/.test(document.querySelector('tr[data-group="kids"] .countdown')?.textContent)
                """)
            #expect(upstreams.piHole.group(named: "Kids")?.enabled == false)
            try await browser.type("600", into: #"tr[data-outlet="return-pump"] input.for"#)
            try await browser.click(#"tr[data-outlet="return-pump"] button[data-value="off"]"#)
            try await browser.waitFor("the outlet's restore", """
                return /on in (9:5|10:00)/.test(document.querySelector('tr[data-outlet="return-pump"] .countdown')?.textContent)
                """)
            #expect(upstreams.reef.outlets.first { $0.name == "Return Pump" }?.isOn == false)
            try await browser.type("3600", into: #"tr[data-rule="downtime-tablet"] input.for"#)
            try await browser.click(#"tr[data-rule="downtime-tablet"] button[data-value="on"]"#)
            try await browser.waitFor("the rule's restore", """
                return /off in (59 min|1 h 0 min)/.test(document.querySelector('tr[data-rule="downtime-tablet"] .countdown')?.textContent)
                """)
            #expect(upstreams.unifi.simulator.putBodies().last?["enabled"] == true)
            try await Self.screenshot(browser, "page-controls")
            // Logged in, with commands sent and answered: still nothing in the console.
            let console = try await browser.consoleMessages()
            #expect(console == [], "\(console)")
        }
    }

    @Test func aSceneFromThePageAppliesEveryPartAndItsOffPutsThemBack() async throws {
        let scene = "scenes:\n  - name: Bedtime\n    parts:\n      - unifi_rule: Downtime tablet\n        enabled: true\n"
            + "      - pihole_group: kids\n        enabled: false\n"
        // The group is there before the bridge starts: a part's target is checked then.
        try await Self.withPage(sections: scene, prepare: { _ = $0.piHole.addGroup(name: "kids") }) { upstreams, page, browser in
            try await browser.navigate(page.url)
            try await browser.type(Self.password, into: "#password")
            try await browser.click("#login button")
            try await browser.waitFor("the controls", "return document.body.classList.contains('controls-ready')")
            try await browser.waitFor("the scene", #"return !!document.querySelector('#scenes tr[data-scene="bedtime"]')"#)
            try await browser.type("3600", into: #"tr[data-scene="bedtime"] input.for"#)
            try await browser.click(#"tr[data-scene="bedtime"] button[data-value="on"]"#)
            try await browser.waitFor("the scene's end", """
                return /off in (59 min|1 h 0 min)/.test(document.querySelector('tr[data-scene="bedtime"] .countdown')?.textContent)
                """)
            #expect(upstreams.piHole.group(named: "kids")?.enabled == false)
            #expect(upstreams.unifi.simulator.putBodies().last?["enabled"] == true)
            try await browser.click(#"tr[data-scene="bedtime"] button[data-value="off"]"#)
            try await browser.waitFor("the scene off", """
                return document.querySelector('tr[data-scene="bedtime"] .badge')?.textContent === 'off'
                """)
            #expect(upstreams.piHole.group(named: "kids")?.enabled == true)
            #expect(upstreams.unifi.simulator.putBodies().last?["enabled"] == false)
        }
    }

    @Test func aControlWithoutThePasswordOrFromAnotherSiteIsRefusedAndCarriedOutNowhere() async throws {
        try await Self.withPage { upstreams, page, browser in
            // A login in this browser: its cookie is there, for the cross-site attempt to misuse.
            try await browser.navigate(page.url)
            try await browser.type(Self.password, into: "#password")
            try await browser.click("#login button")
            try await browser.waitFor("the controls", "return document.body.classList.contains('controls-ready')")

            // Another site: a page of the Pi-hole simulator's under another name (the bridge's own
            // listener answers every path with a policy that lets its page fetch nothing), posting
            // to this one.
            try await browser.navigate(upstreams.piHole.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/elsewhere")
            let outcomes = try await browser.execute("""
                return (async () => {
                const target = 'http://127.0.0.1:\(page.port)/command';
                const body = JSON.stringify({ topic: 'pihole/pause', payload: '30' });
                const simple = await fetch(target, { method: 'POST', mode: 'no-cors', credentials: 'include', body })
                  .then(() => 'sent').catch(error => String(error));
                const preflighted = await fetch(target, { method: 'POST', credentials: 'include', body,
                  headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'guessed' } })
                  .then(answer => answer.status).catch(() => 'blocked');
                return [simple, preflighted];
                })();
                """)
            #expect(outcomes == ["sent", "blocked"], "\(outcomes)")

            // And without the browser: no password, then a stolen cookie without its token.
            let json = [("Content-Type", "application/json")]
            let command = #"{"topic":"pihole/pause","payload":"30"}"#
            #expect(try await page.request(.POST, "/command", headers: json, body: command).status == 401)
            let login = try #require(try await page.login(Self.password))
            #expect(try await page.request(.POST, "/command", headers: json + [("Cookie", login.cookie)], body: command).status == 403)

            // Nothing reached the Pi-hole, and the bridge carried out no command.
            try await Task.sleep(for: .seconds(1))
            #expect(upstreams.piHole.pauseCalls.isEmpty)
            #expect(upstreams.piHole.blocking == .enabled)
            try await browser.navigate(page.url)
            try await browser.waitFor("the page", "return !!document.querySelector('.card[data-pihole=\"main\"]')")
            #expect(try await browser.execute("return document.querySelectorAll('#commands tbody tr').length") == .number(0))
        }
    }

    /// Writes docs/images/<name>.png (the viewport, or the element `selector` matches) when the run
    /// is asked to refresh the screenshots.
    static func screenshot(_ browser: WebDriver, _ name: String, of selector: String? = nil) async throws {
        guard ProcessInfo.processInfo.environment["HOME2MQTT_PAGE_SCREENSHOTS"] == "1" else { return }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try await browser.execute("document.querySelectorAll('input.for').forEach(input => input.blur())")
        try await browser.screenshot(of: selector).write(to: repository.appendingPathComponent("docs/images/\(name).png"))
    }
}
