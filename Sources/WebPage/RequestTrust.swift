import BridgeCore

/// Who may do what on the page: the checks every control request passes before anything is
/// carried out.
struct RequestTrust: Sendable {
    let configuration: WebConfiguration
    /// The CSRF token of pages served through the Supervisor's ingress (no session there).
    let ingressToken: String

    /// Through Home Assistant's ingress: only the Supervisor's own address is believed.
    func isIngress(_ request: WebRequest) -> Bool {
        configuration.ingress && request.remoteAddress == WebConfiguration.supervisorAddress
    }

    /// The prefix the Supervisor serves the page under, when it is one; anything else in the
    /// header is ignored rather than written into the page.
    func ingressPath(_ request: WebRequest) -> String? {
        guard isIngress(request), let path = request.header("X-Ingress-Path"), path.hasPrefix("/"),
              path.utf8.allSatisfy({ $0 == UInt8(ascii: "/") || PageControls.isPlain($0) })
        else { return nil }
        return path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Whether `address` (a bind address, or a `Host` header's host) names this machine only.
    static func isLoopback(_ address: String) -> Bool {
        if address == "localhost" || address == "::1" || address == "[::1]" { return true }
        // 127.0.0.0/8, written as an address: not a name that merely starts alike.
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The host a request was sent to, without its port: `Host: [::1]:9134` → `[::1]`.
    static func host(of request: WebRequest) -> String? {
        guard let host = request.header("Host") else { return nil }
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            let rest = host[host.index(after: end)...]
            return rest.isEmpty || rest.hasPrefix(":") ? String(host[...end]) : host
        }
        return host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    /// A request another site made the browser send: its `Sec-Fetch-Site` says so, or its
    /// `Origin` names another host than the one it was sent to (not compared through ingress,
    /// where the Supervisor's proxy sets `Host`).
    func isCrossSite(_ request: WebRequest) -> Bool {
        if let site = request.header("Sec-Fetch-Site"), site != "same-origin" { return true }
        guard !isIngress(request), let origin = request.header("Origin") else { return false }
        guard let host = request.header("Host") else { return true }
        return origin != "http://\(host)" && origin != "https://\(host)"
    }
}
