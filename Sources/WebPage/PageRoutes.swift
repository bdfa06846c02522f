import BridgeCore
import NIOHTTP1

/// The bridge's page (`bridge.web`): what each of its paths answers. Every path is relative to
/// wherever the page is served (`/`, or a proxy's prefix), and every link in it is relative too.
public struct PageRoutes: Sendable {
    let configuration: WebConfiguration
    let activity: PageActivity
    let status: @Sendable () -> JSONValue
    let bridge: any PageCommandPath
    let sessions: PageSessions?
    let trust: RequestTrust
    let streams: EventStreams
    /// On a loopback address, only requests sent to a loopback name are served: a web site whose
    /// name its DNS turns to 127.0.0.1 (DNS rebinding) would otherwise read the page as its own.
    let listensOnLoopback: Bool
    /// Ingress without a password: the page is Home Assistant's alone, and the listener's port on
    /// the host network (the add-on binds 0.0.0.0) shows nothing to anyone else.
    var onlyThroughIngress: Bool { configuration.ingress && configuration.password == nil }

    public init(
        configuration: WebConfiguration, activity: PageActivity, status: @escaping @Sendable () -> JSONValue, bridge: any PageCommandPath,
        listensOnLoopback: Bool = false
    ) {
        self.listensOnLoopback = listensOnLoopback
        self.configuration = configuration
        self.activity = activity
        self.status = status
        self.bridge = bridge
        sessions = configuration.password.map(PageSessions.init(password:))
        trust = RequestTrust(configuration: configuration, ingressToken: RandomToken.make())
        streams = EventStreams(activity: activity, status: status)
    }

    static let sessionCookie = "home2mqtt_session"

    /// The answer for `request`, or `nil` when the path is none of the page's.
    public func answer(_ request: WebRequest) async -> WebAnswer? {
        if listensOnLoopback, !(RequestTrust.host(of: request).map(RequestTrust.isLoopback) ?? false) {
            return .full(.text(.forbidden, "refused: sent to a name that is not this machine's"))
        }
        if onlyThroughIngress, Self.paths.contains(request.path), !trust.isIngress(request) {
            return .full(.text(.forbidden, """
                refused: this page answers only Home Assistant's ingress (\(WebConfiguration.supervisorAddress)); \
                give bridge.web a password to open it to others
                """))
        }
        switch (request.head.method, request.path) {
        case (.GET, "/"), (.HEAD, "/"): return .full(page(request))
        case (.GET, "/page.js"): return .full(Self.asset(PackageResources.page_js, type: "text/javascript; charset=utf-8"))
        case (.GET, "/page.css"): return .full(Self.asset(PackageResources.page_css, type: "text/css; charset=utf-8"))
        // Linked from the page; /favicon.ico for a browser that asks the origin's anyway.
        case (.GET, "/favicon.svg"), (.GET, "/favicon.ico"): return .full(Self.asset(PackageResources.favicon_svg, type: "image/svg+xml"))
        // "Add to Home Screen": the page as an app, its URLs relative, so under an ingress prefix too.
        case (.GET, "/manifest.webmanifest"):
            return .full(Self.asset(PackageResources.manifest_webmanifest, type: "application/manifest+json"))
        case (.GET, "/events"): return streams.open()
        case (.POST, "/login"): return .full(login(request))
        case (.POST, "/logout"): return .full(logout(request))
        case (.POST, "/command"): return .full(await command(request))
        case (_, let path) where Self.paths.contains(path): return .full(.text(.methodNotAllowed, "method not allowed"))
        default: return nil
        }
    }

    /// Every path the page answers; any other is the listener's (`/healthz`, `/metrics`) or nobody's.
    static let paths: Set<Substring> = [
        "/", "/page.js", "/page.css", "/favicon.svg", "/favicon.ico", "/manifest.webmanifest", "/events", "/login", "/logout", "/command",
    ]

    /// What the page's controls may do for `request`: its CSRF token, or why not.
    private enum Access { case off, login, session(csrf: String), ingress(csrf: String) }

    private func access(_ request: WebRequest) -> Access {
        guard configuration.controls else { return .off }
        if trust.isIngress(request) { return .ingress(csrf: trust.ingressToken) }
        // Without a password (ingress alone), controls only through the Supervisor.
        guard let sessions else { return .off }
        guard let session = sessions.session(request.cookie(Self.sessionCookie)) else { return .login }
        return .session(csrf: session.csrf)
    }

    private func page(_ request: WebRequest) -> WebResponse {
        let controls: String, csrf: String
        switch access(request) {
        case .off: (controls, csrf) = ("off", "")
        case .login: (controls, csrf) = ("login", "")
        case .session(let token): (controls, csrf) = ("session", token)
        case .ingress(let token): (controls, csrf) = ("ingress", token)
        }
        let html = PageHTML.render(base: trust.ingressPath(request).map { $0 + "/" }, controls: controls, csrf: csrf)
        return WebResponse(.ok, contentType: "text/html; charset=utf-8", body: Array(html.utf8), headers: Self.pageHeaders)
    }

    private static func asset(_ bytes: [UInt8], type: String) -> WebResponse {
        WebResponse(.ok, contentType: type, body: bytes, headers: pageHeaders)
    }

    /// Nothing from elsewhere: no script, style or connection but the page's own; no framing by
    /// another site (Home Assistant's ingress frames it from its own origin, which serves it).
    /// Every answer gets `nosniff` and no referrer as well (`HTTPConnectionHandler`).
    static let pageHeaders = [
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'self'; frame-ancestors 'self'"),
        ("Cache-Control", "no-store"),
    ]

    private func login(_ request: WebRequest) -> WebResponse {
        guard configuration.controls, let sessions else { return .text(.notFound, "the page has no login: bridge.web.controls is off") }
        if let refusal = refusedAsForeign(request) { return refusal }
        guard case .string(let password)? = JSONValue.parse(request.body)?["password"] else {
            return .text(.badRequest, #"expected {"password":"…"}"#)
        }
        switch sessions.login(password: password) {
        case .tooMany:
            return .text(.tooManyRequests, "too many failed logins: wait a minute")
        case .refused:
            return .text(.unauthorized, "wrong password")
        case .session(let session):
            let cookie = "\(Self.sessionCookie)=\(session.token); HttpOnly; SameSite=Strict; Path=/; Max-Age=\(PageSessions.lifetime.components.seconds)"
            return WebResponse(.ok, contentType: "application/json", body: JSONValue.object(["csrf": .string(session.csrf)]).encoded(),
                               headers: [("Set-Cookie", cookie), ("Cache-Control", "no-store")])
        }
    }

    private func logout(_ request: WebRequest) -> WebResponse {
        if let refusal = refusedAsForeign(request) { return refusal }
        sessions?.logout(request.cookie(Self.sessionCookie))
        return WebResponse(.ok, contentType: "text/plain", body: [],
                           headers: [("Set-Cookie", "\(Self.sessionCookie)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")])
    }

    /// A request sent by another site, or not by the page's own script (which always sends
    /// JSON): refused before anything else is looked at.
    private func refusedAsForeign(_ request: WebRequest) -> WebResponse? {
        if trust.isCrossSite(request) { return .text(.forbidden, "refused: a cross-site request") }
        guard request.header("Content-Type")?.hasPrefix("application/json") == true else {
            return .text(.unsupportedMediaType, "expected Content-Type: application/json")
        }
        return nil
    }

    private func command(_ request: WebRequest) async -> WebResponse {
        guard configuration.controls else { return .text(.notFound, "the page's controls are off (bridge.web.controls)") }
        if let refusal = refusedAsForeign(request) { return refusal }
        let csrf: String
        switch access(request) {
        case .off: return .text(.forbidden, "the page's controls are only for Home Assistant's ingress here")
        case .login: return .text(.unauthorized, "log in first")
        case .session(let token), .ingress(let token): csrf = token
        }
        guard let sent = request.header("X-CSRF-Token"), ConstantTime.equal(Array(sent.utf8), Array(csrf.utf8)) else {
            return .text(.forbidden, "refused: missing or wrong X-CSRF-Token")
        }
        guard let body = JSONValue.parse(request.body), case .string(let topic)? = body["topic"] else {
            return .text(.badRequest, #"expected {"topic":"…","payload":"…"}: a command's topic below the base topic, and its payload"#)
        }
        let payload: String
        switch body["payload"] {
        case nil, .null?: payload = ""
        case .string(let text)?: payload = text
        case let value?: payload = value.encodedString()
        }
        let fullTopic = "\(activity.topics.base)/\(topic)"
        guard PageControls.isPlainTopic(topic), bridge.isEverydayCommand(fullTopic) else {
            return .text(.forbidden, "not a command the page sends: '\(topic)'")
        }
        let answer = await bridge.send(topic: fullTopic, payload: Array(payload.utf8))
        return WebResponse(.ok, contentType: "application/json", body: answer.payload.encoded(), headers: [("Cache-Control", "no-store")])
    }
}
