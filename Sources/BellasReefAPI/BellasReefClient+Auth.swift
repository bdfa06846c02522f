#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import NIOHTTP1
import UpstreamHTTP

extension BellasReefClient {
    /// An access token to send, logging in or refreshing (once, shared) when needed.
    func token() async throws -> String {
        switch machine.tokenNeeded(now: now()) {
        case .use(let token):
            return token
        case .fail(let error):
            throw error
        case .waitForLogin:
            return try await withCheckedThrowingContinuation { tokenWaiters.append($0) }
        case .startLogin:
            return try await obtainToken(refreshToken: nil)
        case .startRefresh(let refreshToken):
            return try await obtainToken(refreshToken: refreshToken)
        }
    }

    /// A request sent with a token. A 401, or the core's plain-text 500 on the retry, costs
    /// one fresh login and one retry. Other statuses are returned for the caller to judge.
    func authenticated(
        _ service: BellasReefService, _ method: HTTPMethod, _ path: String, query: String? = nil, maxBodySize: Int = AnswerSize.single
    ) async throws -> UpstreamResponse {
        var isRetry = false
        while true {
            let token = try await token()
            let response = try await send(service, method, path, query: query, token: token, maxBodySize: maxBodySize)
            guard response.status == 401 || (isRetry && response.status == 500) else { return response }
            let error = BellasReefErrorMapping.error(
                status: response.status, contentType: response.contentType, body: response.body,
                context: isRetry ? .retryAfterTokenProblem : .authenticated)
            guard error.code == .unauthorized else { return response }
            switch machine.requestRejected(accessToken: token, isRetry: isRetry, error: error) {
            case .retryWithFreshToken:
                logger.info(
                    "Bella's Reef refused the token; logging in again",
                    metadata: ["service": "\(service.rawValue)", "path": "\(path)"])
                isRetry = true
            case .fail(let error):
                throw error
            }
        }
    }

    /// Performs the login (or the refresh, falling back to a login), tells the machine and
    /// every waiting caller.
    private func obtainToken(refreshToken: String?) async throws -> String {
        let result: Result<String, any Error>
        do {
            let token = try await refreshOrLogin(refreshToken: refreshToken)
            machine.loginSucceeded(token)
            result = .success(token.accessToken)
        } catch {
            let failure = BellasReefError.mapping(error)
            if let failure = failure as? BellasReefError {
                let delay = machine.loginFailed(failure, now: now())
                logger.warning("Bella's Reef login failed", metadata: ["error": "\(failure)", "backoff": "\(delay)"])
            } else {
                machine.loginCancelled(now: now())
            }
            result = .failure(failure)
        }
        let waiters = tokenWaiters
        tokenWaiters.removeAll()
        for waiter in waiters { waiter.resume(with: result) }
        return try result.get()
    }

    private func refreshOrLogin(refreshToken: String?) async throws -> BellasReefToken {
        if let refreshToken {
            do {
                let body = Data(JSONValue.object(["refresh_token": .string(refreshToken)]).encoded())
                let token = try await requestToken("/api/auth/refresh", body: .json(body))
                logger.debug("Bella's Reef token refreshed", metadata: ["refreshes": "\(machine.refreshCount)"])
                return token
            } catch {
                logger.info(
                    "Bella's Reef refresh failed; logging in",
                    metadata: ["error": "\(BellasReefError.mapping(error))"])
                machine.refreshFailed()
            }
        }
        let fields = [(name: "username", value: connection.username), (name: "password", value: connection.password)]
        let token = try await requestToken("/api/auth/login", body: .form(fields))
        logger.info("Bella's Reef login succeeded", metadata: ["logins": "\(machine.loginCount)"])
        return token
    }

    /// `POST` to a token endpoint of the core → `{"access_token","token_type","refresh_token"?}`.
    private func requestToken(_ path: String, body: ReefRequestBody) async throws -> BellasReefToken {
        let response = try await send(.core, .POST, path, body: body, token: nil)
        guard response.isSuccess else {
            throw BellasReefErrorMapping.error(
                status: response.status, contentType: response.contentType, body: response.body, context: .login)
        }
        guard let grant = JSONValue.decode(TokenGrant.self, from: response.body) else {
            throw BellasReefError.undecodable("token answer", status: response.status)
        }
        return BellasReefToken(accessToken: grant.accessToken, refreshToken: grant.refreshToken, receivedAt: now())
    }

    /// The `Token` schema: only `access_token` is required.
    struct TokenGrant: Decodable {
        let accessToken: String
        let refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token"
        }
    }
}
