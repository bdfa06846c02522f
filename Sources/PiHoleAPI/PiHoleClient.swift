#if canImport(FoundationEssentials)
import BridgeRuntime
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import Logging
import NIOHTTP1
import PlainText
import Synchronization
import UpstreamHTTP

/// Client for the Pi-hole v6 REST API.
///
/// Holds **one** session for its whole life (see ``PiHoleSessionStateMachine``): it logs in
/// lazily, sends the SID only in the `X-FTL-SID` header, shares one in-flight login between
/// concurrent callers, re-logs in once on a 401, and backs off after failed logins so that
/// it never storms the Pi-hole with password attempts. Call ``logout()`` on shutdown to give
/// the API seat back.
public actor PiHoleClient {
    let connection: PiHoleConnection
    let httpClient: UpstreamHTTPClient
    let logger: Logger
    let now: @Sendable () -> ContinuousClock.Instant

    var machine = PiHoleSessionStateMachine() {
        didSet { logins.store(machine.loginCount, ordering: .relaxed) }
    }
    /// `machine.loginCount`, for readers outside the actor: asking the actor costs every
    /// operation that records its logins two jobs on the event loop.
    private let logins = Atomic(0)
    var loginTask: Task<String, any Error>?

    /// How long ``logout()`` may take at most.
    static let logoutTimeout: Duration = .seconds(2)

    public init(
        connection: PiHoleConnection,
        httpClient: UpstreamHTTPClient,
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.connection = connection
        self.httpClient = httpClient
        self.logger = logger
        self.now = now
    }

    /// Logins attempted by this client (successful or not).
    public nonisolated var loginCount: Int { logins.load(ordering: .relaxed) }

    // MARK: - API

    /// `GET /api/dns/blocking`.
    public func blockingStatus() async throws -> PiHoleBlockingStatus {
        try decodeBlockingStatus(try await authenticated(.GET, "/api/dns/blocking"))
    }

    /// `POST /api/dns/blocking`. `timer` in seconds reverts the change after that long; `nil` is permanent.
    public func setBlocking(_ enabled: Bool, timer: Int?) async throws -> PiHoleBlockingStatus {
        let payload = Data(PiHoleWire.blockingRequest(enabled, timer: timer).encoded())
        return try decodeBlockingStatus(try await authenticated(.POST, "/api/dns/blocking", body: payload))
    }

    /// `GET /api/info/host` → `host.uname.nodename`.
    public func hostName() async throws -> String {
        let response = try await authenticated(.GET, "/api/info/host")
        return try decodeSuccess(PiHoleWire.HostResponse.self, response, what: "host info").host.uname.nodename
    }

    /// `GET /api/info/version`: installed and latest versions of core, web and FTL, any of them unknown.
    public func versions() async throws -> PiHoleVersions {
        let response = try await authenticated(.GET, "/api/info/version")
        let version = try decodeSuccess(PiHoleWire.VersionResponse.self, response, what: "version info").version
        func component(_ wire: PiHoleWire.VersionResponse.Version.Component?) -> PiHoleVersions.Component {
            PiHoleVersions.Component(installed: wire?.local?.version, latest: wire?.remote?.version)
        }
        return PiHoleVersions(core: component(version.core), web: component(version.web), ftl: component(version.ftl))
    }

    /// `POST /api/domains/{list}/{kind}`. A duplicate is answered 201 by the Pi-hole with the
    /// failure in `processed.errors`: that becomes `.duplicate` with the Pi-hole's own text.
    public func addDomain(
        _ domain: String, to list: PiHoleDomainList, kind: PiHoleDomainKind, comment: String?
    ) async throws {
        let payload = PiHoleWire.domainRequest(domain: domain, comment: comment)
        let response = try await authenticated(.POST, "/api/domains/\(list.rawValue)/\(kind.rawValue)", body: payload)
        let body = try decodeSuccess(PiHoleWire.ProcessedResponse.self, response, what: "domain add result")
        if let failure = body.processed?.errors?.first {
            throw PiHoleError(
                .duplicate, failure.error ?? "\(failure.item ?? domain) could not be added", status: response.status)
        }
    }

    /// `DELETE /api/domains/{list}/{kind}/{domain}` (percent-encoded). 404 → `.notFound`.
    public func removeDomain(_ domain: String, from list: PiHoleDomainList, kind: PiHoleDomainKind) async throws {
        let path = "/api/domains/\(list.rawValue)/\(kind.rawValue)/\(domain.percentEncodedPathSegment)"
        let response = try await authenticated(.DELETE, path)
        switch response.status {
        case 200..<300:
            return
        case 404:
            let kindText = kind == .regex ? " regex" : ""
            throw PiHoleError(.notFound, "\(domain) is not on the \(list.rawValue)\(kindText) list", status: 404)
        default:
            throw mapFailure(response)
        }
    }

    /// `DELETE /api/auth` if a session exists. Never throws; returns within about 2 s.
    public func logout() async {
        _ = await withTimeLimit(Self.logoutTimeout) { await self.performLogout() }
    }

    // MARK: - Session handling

    /// A SID to use, logging in (once, shared) when needed.
    func session() async throws -> String {
        switch machine.sessionNeeded(now: now()) {
        case .use(let sid):
            return sid
        case .fail(let error):
            throw error
        case .startLogin:
            let task = Task { try await self.performLogin() }
            loginTask = task
            return try await task.value
        case .waitForLogin:
            guard let task = loginTask else {
                throw PiHoleError(.unexpectedResponse, "login in progress but no login task")
            }
            return try await task.value
        }
    }

    /// An authenticated request, with one fresh login and one retry on 401. `timeout`,
    /// `maxBodySize` and `streamingSuccessBodyTo` as for ``send(_:_:body:sid:timeout:maxBodySize:streamingSuccessBodyTo:)``.
    func authenticated(
        _ method: HTTPMethod, _ path: String, body: Data? = nil, timeout: Duration? = nil, maxBodySize: Int = AnswerSize.single,
        streamingSuccessBodyTo handler: ResponseBodyChunks? = nil
    ) async throws -> UpstreamResponse {
        var isRetry = false
        while true {
            let sid = try await session()
            let response = try await send(
                method, path, body: body, sid: sid, timeout: timeout, maxBodySize: maxBodySize, streamingSuccessBodyTo: handler)
            guard response.status == 401 else { return response }
            let rejection = PiHoleErrorMapping.error(
                status: 401, body: response.body, retryAfterHeader: nil, context: .authenticated)
            switch machine.requestRejected(sid: sid, isRetry: isRetry, message: rejection.message) {
            case .retryWithFreshSession:
                logger.info("Pi-hole rejected the session; logging in again", metadata: ["path": "\(path)"])
                isRetry = true
            case .fail(let error):
                throw error
            }
        }
    }

    private func performLogin() async throws -> String {
        defer { loginTask = nil }
        logger.debug("Pi-hole login", metadata: ["attempt": "\(machine.loginCount)"])
        do {
            let payload = Data(JSONValue.object(["password": .string(connection.password)]).encoded())
            let response = try await send(.POST, "/api/auth", body: payload, sid: nil)
            guard response.isSuccess else {
                throw PiHoleErrorMapping.error(
                    status: response.status, body: response.body,
                    retryAfterHeader: response.retryAfter, context: .login)
            }
            guard let session = JSONValue.decode(PiHoleWire.AuthResponse.self, from: response.body)?.session
            else {
                // A mangled answer: the login may well have made a session.
                var failure = PiHoleError.undecodable("login response", status: response.status)
                failure.requestMayHaveArrived = true
                throw failure
            }
            guard session.valid == true else {
                throw PiHoleError(.wrongPassword, session.message ?? "password incorrect", status: response.status)
            }
            // valid without a SID: the Pi-hole has no password set; requests need no SID.
            let sid = session.sid ?? ""
            machine.loginSucceeded(sid: sid)
            logger.info("Pi-hole login succeeded", metadata: ["logins": "\(machine.loginCount)"])
            if machine.loginsWithLostAnswers > 0 { await endSessionsOfLostLogins(using: sid) }
            return sid
        } catch {
            guard let failure = PiHoleError.mapping(error) as? PiHoleError else {
                machine.loginCancelled()
                throw error
            }
            let delay = machine.loginFailed(
                failure, now: now(), answerLost: failure.requestMayHaveArrived, jitter: Double.random(in: 0...1))
            logger.warning(
                "Pi-hole login failed",
                metadata: ["error": "\(failure)", "backoff": "\(delay)"])
            throw failure
        }
    }

    private func performLogout() async {
        while true {
            switch machine.logout() {
            case .none:
                return
            case .waitForLogin:
                guard let task = loginTask else { return }
                _ = try? await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
                if Task.isCancelled { return }
            case .deleteSession(let sid):
                if machine.loginsWithLostAnswers > 0 { await endSessionsOfLostLogins(using: sid) }
                do {
                    let response = try await send(
                        .DELETE, "/api/auth", body: nil, sid: sid, timeout: Self.logoutTimeout)
                    logger.info("Pi-hole logout", metadata: ["status": "\(response.status)"])
                } catch {
                    logger.info("Pi-hole logout failed", metadata: ["error": "\(PiHoleError.mapping(error))"])
                }
                return
            }
        }
    }

    // MARK: - Helpers

    func decodeSuccess<T: Decodable>(_ type: T.Type, _ response: UpstreamResponse, what: String) throws -> T {
        try readSuccess(response, what: what) { JSONValue.decode(T.self, from: $0) }
    }

    private func decodeBlockingStatus(_ response: UpstreamResponse) throws -> PiHoleBlockingStatus {
        try readSuccess(response, what: "blocking status") { JSONValue.parse($0).flatMap(PiHoleWire.blockingStatus) }
    }

    /// A 2xx body as `read` makes it, or the failure mapped; `what` names it when `read` cannot.
    private func readSuccess<T>(_ response: UpstreamResponse, what: String, _ read: (Data) -> T?) throws -> T {
        guard response.isSuccess else { throw mapFailure(response) }
        guard let value = read(response.body) else { throw PiHoleError.undecodable(what, status: response.status) }
        return value
    }

    func mapFailure(_ response: UpstreamResponse) -> PiHoleError {
        PiHoleErrorMapping.error(
            status: response.status, body: response.body,
            retryAfterHeader: response.retryAfter, context: .authenticated)
    }
}
