import AllUpstreamsTestSupport
import Foundation
import JSONDocument
import Testing
import UniFiSimulator
import WebDriverTestSupport

/// The guest card in headless Chromium, against the real executable and the UniFi simulator:
/// a voucher made from the page, its code on the card and on paper, and nowhere else.
@Suite(.serialized) struct GuestCardInBrowserTests {
    @Test func aGuestCardShowsTheNewVouchersCodeAndTheGuestNetworkAndNothingElseShowsTheCode() async throws {
        try await PageInBrowserTests.withPage(prepare: { $0.unifi.simulator.addHouseholdWifi() }) { upstreams, page, browser in
            try await browser.navigate(page.url)
            // Read-only, the form is not there.
            try await browser.waitFor("the UniFi section", #"return !!document.querySelector('#unifi tr[data-rule="downtime-emma"]')"#)
            #expect(try await browser.execute("return getComputedStyle(document.querySelector('#guest-form')).display") == "none")
            try await browser.type(PageInBrowserTests.password, into: "#password")
            try await browser.click("#login button")
            try await browser.waitFor("the guest card's form", """
                return getComputedStyle(document.querySelector('#guest-form')).display !== 'none'
                  && document.querySelector('#guest-minutes option')?.textContent === '1 day'
                """)
            // One console: no choice of console.
            #expect(try await browser.execute("return document.querySelector('#guest-console-choice').hidden") == true)
            try await browser.execute("document.querySelector('#guest-count').value = '2'")
            // Pressed twice, as an impatient finger does: one voucher.
            try await browser.execute("const button = document.querySelector('#guest-form button[type=submit]'); button.click(); button.click();")
            try await browser.waitFor("the card", "return !document.querySelector('#guest-card').hidden")

            // The voucher the console made: one day, two guests; its code is the card's.
            let made = upstreams.unifi.simulator.vouchers()
            try #require(made.count == 1)
            #expect(made[0]["timeLimitMinutes"] == 1440 && made[0]["authorizedGuestLimit"] == 2 && made[0]["name"] == "guest card")
            let code = try #require(made[0]["code"]?.stringValue)
            let shown = "\(code.prefix(5))-\(code.dropFirst(5))"
            let card = try await browser.execute("return document.querySelector('#guest-card').innerText").stringValue ?? ""
            #expect(card.contains(shown), "\(card)")
            #expect(card.contains("Guests") && !card.contains("Guests (old)") && !card.contains("Home"), "only the enabled portal: \(card)")
            #expect(card.contains("1 day from the first sign-in · 2 guests"), "\(card)")
            try await PageInBrowserTests.screenshot(browser, "page-guest-card", of: ".guest-card-body")

            // On paper, the card alone.
            try await browser.emulateMedia("print")
            #expect(try await browser.execute("return getComputedStyle(document.querySelector('main')).display") == "none")
            #expect(try await browser.execute("return getComputedStyle(document.querySelector('header')).display") == "none")
            #expect(try await browser.execute("return getComputedStyle(document.querySelector('.guest-card-actions')).display") == "none")
            #expect(try await browser.execute("return getComputedStyle(document.querySelector('#guest-card')).display") == "flex")
            try await browser.emulateMedia("")

            // Nowhere else: the command list says withheld, the page's model (every page's stream)
            // and every message on the broker hold no code.
            try await browser.waitFor("the command in the list", """
                return [...document.querySelectorAll('#commands tbody tr')].some(row => row.textContent.includes('home/unifi/voucher/create')
                  && row.textContent.includes('(withheld: carries credentials)'))
                """)
            let model = try await browser.execute("return JSON.stringify(model)").stringValue ?? ""
            #expect(!model.isEmpty && !model.contains(code))
            #expect(!page.observer.recorder.messages.contains { ($0.payloadString ?? "").contains(code) })
            #expect(upstreams.unifi.simulator.vouchers().count == 1, "a second press made a second voucher")
            // Closed, the code is gone from the page.
            try await browser.click("#guest-close")
            #expect(try await browser.execute("return document.documentElement.outerHTML.includes(arguments[0])", [.string(code)]) == false)
            let console = try await browser.consoleMessages()
            #expect(console == [], "\(console)")
        }
    }
}
