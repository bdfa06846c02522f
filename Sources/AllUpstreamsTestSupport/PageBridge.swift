import BridgeTestSupport
import Foundation
import MQTTTestSupport
import NIOCore
import NIOHTTP1
import JSONDocument
import UpstreamHTTP

/// The real executable with its page on (`bridge.web`), wired to the simulators, and an HTTP
/// client for the page's paths.
public struct PageBridge: Sendable {
    public let process: BridgeProcess
    public let port: Int
    public let observer: Observer
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// Starts it with `web` as the `bridge.web` section's lines (indented by four spaces) and
    /// `sections` as top-level ones (`scenes:`), and waits until it serves all three upstreams.
    public static func start(_ upstreams: AllUpstreams, web: String, sections: String = "") async throws -> PageBridge {
        let (port, process) = try await LoopbackPort.withHeld { port in
            let config = try upstreams.configFile(bridge: """
                  health:
                    enabled: true
                    port: \(port)
                  web:
                    enabled: true
                \(web)

                """, sections: sections)
            let process = try BridgeProcess(["run", "--config", config])
            try await waitUntil("the page to listen", timeout: .seconds(30)) { LoopbackPort.accepts(port: port) }
            return (port, process)
        }
        let observer = try await Observer(upstreams.broker, subscribe: ["home/#"])
        try await AllUpstreams.waitUntilServing(observer)
        return PageBridge(process: process, port: port, observer: observer)
    }

    public func stop() async throws {
        await observer.disconnect()
        process.signal(SIGTERM)
        _ = try await process.finish()
    }

    /// One request to the page: its status, headers and body.
    public func request(
        _ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        let client = try UpstreamHTTPClient(tls: nil)
        do {
            let answer = try await client.collect(
                method, "http://127.0.0.1:\(port)\(path)", headers: HTTPHeaders(headers),
                body: body.map { ByteBuffer(string: $0) }, timeout: .seconds(30), maxBodySize: 8 << 20)
            try await client.shutdown()
            return (Int(answer.status.code), answer.headers, String(buffer: answer.body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Logs in with `password`: the session cookie and the CSRF token the login answered.
    public func login(_ password: String) async throws -> (cookie: String, csrf: String)? {
        let answer = try await request(
            .POST, "/login", headers: [("Content-Type", "application/json")], body: #"{"password":"\#(password)"}"#)
        guard answer.status == 200, let setCookie = answer.headers.first(name: "Set-Cookie"),
              let cookie = setCookie.split(separator: ";").first,
              let csrf = JSONValue.parse(Array(answer.body.utf8))?["csrf"]?.stringValue else { return nil }
        return (String(cookie), csrf)
    }
}
