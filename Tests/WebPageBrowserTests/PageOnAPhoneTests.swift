import AllUpstreamsTestSupport
import JSONDocument
import Testing
import WebDriverTestSupport

/// The page in a hand: at a phone's size (390 × 844, Chromium's mobile emulation) nothing
/// scrolls sideways, and what the seeds' phone app did first is on the first screen and works.
@Suite(.serialized) struct PageOnAPhoneTests {
    static let scene = "scenes:\n  - name: Bedtime\n    parts:\n      - pihole_group: kids\n        enabled: false\n"

    /// Whether the element `selector` is whole within the first screen and big enough for a thumb.
    private func onTheFirstScreen(_ browser: WebDriver, _ selector: String) async throws -> JSONValue {
        try await browser.execute("""
            const box = document.querySelector(arguments[0])?.getBoundingClientRect();
            if (!box) return 'missing';
            return box.top >= 0 && box.bottom <= window.innerHeight && box.height >= 44 ? true : `${box.top}–${box.bottom} of ${window.innerHeight}, ${box.height} high`;
            """, [.string(selector)])
    }

    @Test func thePauseASceneAndAnOutletAreOnTheFirstScreenAndWork() async throws {
        try await PageInBrowserTests.withPage(sections: Self.scene, prepare: { _ = $0.piHole.addGroup(name: "kids") }, phone: true) {
            upstreams, page, browser in
            try await browser.navigate(page.url)
            try await browser.type(PageInBrowserTests.password, into: "#password")
            try await browser.click("#login button")
            try await browser.waitFor("the controls", "return document.body.classList.contains('controls-ready')")
            try await browser.waitFor("the Pi-hole, the scene and the outlets", """
                return !!document.querySelector('.card[data-pihole="main"]') && !!document.querySelector('#scenes tr[data-scene="bedtime"]')
                  && !!document.querySelector('#outlets tr[data-outlet="return-pump"]')
                """)
            #expect(try await browser.execute("return window.innerWidth") == 390)
            #expect(try await browser.execute("return document.documentElement.scrollWidth <= window.innerWidth") == true)
            let pause = #".card[data-pihole="main"] button[data-payload="30"]"#
            let sceneOn = #"tr[data-scene="bedtime"] button[data-value="on"]"#
            let outletOff = #"tr[data-outlet="return-pump"] button[data-value="off"]"#
            for control in [pause, sceneOn, outletOff] {
                #expect(try await onTheFirstScreen(browser, control) == true, "\(control)")
            }
            // The details wait below, folded.
            #expect(try await browser.execute("return document.querySelector('#details').open") == false)
            try await PageInBrowserTests.screenshot(browser, "page-phone")

            try await browser.click(pause)
            try await browser.click(sceneOn)
            try await browser.click(outletOff)
            try await browser.waitFor("the pause, the scene and the outlet", """
                return /resumes in/.test(document.querySelector('.card[data-pihole="main"] .countdown')?.textContent)
                  && document.querySelector('tr[data-scene="bedtime"] .badge')?.textContent === 'on'
                  && document.querySelector('tr[data-outlet="return-pump"] .badge')?.textContent === 'off'
                """)
            // The scene's event, as a sentence.
            try await browser.waitFor("the scene's event", """
                return [...document.querySelectorAll('#messages li.event summary')].some(s => s.textContent.trim() === 'scene bedtime on')
                """)
            #expect(upstreams.piHole.pauseCalls.map(\.seconds) == [30])
            #expect(upstreams.piHole.group(named: "kids")?.enabled == false)
            #expect(upstreams.reef.outlets.first { $0.name == "Return Pump" }?.isOn == false)
            #expect(try await browser.execute("return document.documentElement.scrollWidth <= window.innerWidth") == true)
            let console = try await browser.consoleMessages()
            #expect(console == [], "\(console)")
        }
    }
}
