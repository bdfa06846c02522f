import ChildProcess
import Foundation
import JSONDocument
import MQTTTestSupport
import NIOCore
import NIOHTTP1
import UpstreamHTTP

/// Headless Chromium from Debian (`chromium`, `chromium-driver`), driven over WebDriver's HTTP
/// JSON protocol: a chromedriver of its own on a free loopback port, one browser session.
public final class WebDriver: Sendable {
    public static let chromium = "/usr/bin/chromium"
    public static let chromedriver = "/usr/bin/chromedriver"

    private let driver: ChildProcess
    private let http: UpstreamHTTPClient
    private let session: String
    private let base: String
    /// The browser's profile, removed at `quit`.
    private let profile: URL

    private init(driver: ChildProcess, http: UpstreamHTTPClient, session: String, base: String, profile: URL) {
        self.driver = driver
        self.http = http
        self.session = session
        self.base = base
        self.profile = profile
    }

    /// Starts chromedriver and a headless browser `width` × `height` pixels; with `phone`, as
    /// Chromium's mobile emulation shows a phone that size (touch, three device pixels a pixel).
    public static func start(width: Int = 1280, height: Int = 1600, phone: Bool = false) async throws -> WebDriver {
        for program in [chromium, chromedriver] where !FileManager.default.isExecutableFile(atPath: program) {
            throw WebDriverError("\(program) is missing: scripts/install-deps installs chromium and chromium-driver")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-browser-\(UUID().uuidString)")
        let port = try LoopbackPort.free()
        let driver = try ChildProcess(
            path: chromedriver, arguments: ["--port=\(port)", "--allowed-ips=127.0.0.1"], logPath: scratch.path + ".log")
        let http = try UpstreamHTTPClient(tls: nil)
        let base = "http://127.0.0.1:\(port)"
        do {
            try await waitUntil("chromedriver to listen", timeout: .seconds(20)) { LoopbackPort.accepts(port: port) }
            var options: JSONValue = [
                "binary": .string(chromium),
                "args": .array([
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                    .string("--window-size=\(width),\(height)"), .string("--user-data-dir=\(scratch.path)"),
                ]),
            ]
            if phone {
                options = options.setting("mobileEmulation", ["deviceMetrics": [
                    "width": .number(Double(width)), "height": .number(Double(height)), "pixelRatio": 3, "touch": true,
                ]])
            }
            let capabilities: JSONValue = ["capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                // What the page logs to the console, and the browser's own messages about it (a
                // failed load, a refused script), for `consoleMessages()`.
                "goog:loggingPrefs": ["browser": "ALL"],
                "goog:chromeOptions": options,
            ]]]
            let created = try await Self.call(http, .POST, base + "/session", capabilities)
            guard let session = created["sessionId"]?.stringValue else { throw WebDriverError("no session: \(created)") }
            return WebDriver(driver: driver, http: http, session: session, base: base, profile: scratch)
        } catch {
            driver.terminate()
            try? await http.shutdown()
            throw error
        }
    }

    /// The console's messages since the last call (chromedriver's log endpoint): each with its
    /// `level` and `message`.
    public func consoleMessages() async throws -> [JSONValue] {
        try await call(.POST, "/se/log", ["type": "browser"]).arrayValue ?? []
    }

    /// Ends the browser session and chromedriver.
    public func quit() async {
        _ = try? await call(.DELETE, "")
        driver.terminate()
        try? await http.shutdown()
        try? FileManager.default.removeItem(at: profile)
        try? FileManager.default.removeItem(atPath: profile.path + ".log")
    }

    public func navigate(_ url: String) async throws {
        _ = try await call(.POST, "/url", ["url": .string(url)])
    }

    /// Runs `script` (a function body: `return …`) in the page and returns what it returned.
    @discardableResult
    public func execute(_ script: String, _ arguments: [JSONValue] = []) async throws -> JSONValue {
        try await call(.POST, "/execute/sync", ["script": .string(script), "args": .array(arguments)])
    }

    /// The first element `selector` matches: its WebDriver reference.
    public func element(_ selector: String) async throws -> String {
        let found = try await call(.POST, "/element", ["using": "css selector", "value": .string(selector)])
        guard let id = found["element-6066-11e4-a52e-4f735466cecf"]?.stringValue else { throw WebDriverError("no element \(selector)") }
        return id
    }

    public func click(_ selector: String) async throws {
        try await onElement(selector, "/click", [:])
    }

    public func type(_ text: String, into selector: String) async throws {
        try await onElement(selector, "/value", ["text": .string(text)])
    }

    /// Finds `selector` and acts on it as a user would: finding it again when the page re-rendered
    /// it in between (a live page replaces its parts as state arrives: WebDriver's "stale element
    /// reference"), and waiting, up to `timeout`, while it cannot be used yet (hidden or disabled
    /// until the state it needs arrives: "element not interactable").
    private func onElement(_ selector: String, _ action: String, _ body: JSONValue, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                _ = try await call(.POST, "/element/\(try await element(selector))\(action)", body)
                return
            } catch let error as WebDriverError where Self.isPassing(error) && ContinuousClock.now < deadline {
                // Polled: WebDriver says nothing when an element becomes usable.
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private static func isPassing(_ error: WebDriverError) -> Bool {
        error.description.contains("stale element reference") || error.description.contains("element not interactable")
    }

    /// The visible text of the page's body.
    public func bodyText() async throws -> String {
        try await execute("return document.body.innerText").stringValue ?? ""
    }

    /// Waits until `script` returns `true` in the page.
    public func waitFor(_ what: String, timeout: Duration = .seconds(15), _ script: String) async throws {
        try await waitUntil(what, timeout: timeout) { (try? await self.execute(script)) == .bool(true) }
    }

    /// Renders the page for `media` (`print`: as on paper), or as usual with `""`; through
    /// chromedriver's DevTools passage (`Emulation.setEmulatedMedia`), WebDriver having none.
    public func emulateMedia(_ media: String) async throws {
        _ = try await call(.POST, "/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia", "params": ["media": .string(media)]])
    }

    /// A PNG of the browser's viewport, or of the first element `selector` matches.
    public func screenshot(of selector: String? = nil) async throws -> Data {
        var path = "/screenshot"
        if let selector { path = "/element/\(try await element(selector))/screenshot" }
        guard let text = try await call(.GET, path).stringValue, let png = Data(base64Encoded: text) else {
            throw WebDriverError("no screenshot")
        }
        return png
    }

    private func call(_ method: HTTPMethod, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await Self.call(http, method, "\(base)/session/\(session)\(path)", body)
    }

    private static func call(_ http: UpstreamHTTPClient, _ method: HTTPMethod, _ url: String, _ body: JSONValue?) async throws -> JSONValue {
        let answer = try await http.collect(
            method, url, headers: ["Content-Type": "application/json"],
            body: body.map { ByteBuffer(bytes: $0.encoded()) }, timeout: .seconds(60), maxBodySize: 32 << 20)
        let document = JSONValue.parse(Array(buffer: answer.body))
        guard answer.status == .ok, let value = document?["value"] else {
            throw WebDriverError("\(method) \(url): \(answer.status.code) \(String(buffer: answer.body).prefix(500))")
        }
        return value
    }
}

public struct WebDriverError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
