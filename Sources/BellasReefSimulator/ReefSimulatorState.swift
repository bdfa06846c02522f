#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import SimulatorSupport

/// Everything the simulator remembers, behind one lock.
struct ReefSimulatorState: Sendable {
    var options: BellasReefSimulator.Options

    /// Access token → expiry. A token not in here is unknown and refused.
    var accessTokens: [String: Date] = [:]
    /// Refresh tokens given and not used yet (each is good for one refresh).
    var refreshTokens: Set<String> = []
    var loginCount = 0
    var refreshCount = 0

    var outlets: [SimulatedOutlet]
    var probes: [SimulatedProbe]
    var systemUsageCalls = 0
    /// Host uptime counts from here.
    let startedAt: Date

    /// `http://host:port` of each running service, for absolute redirects.
    var baseURLs: [BellasReefSimulator.Service: String] = [:]
    var requests: [BellasReefSimulator.Service: RequestLog] = [:]
    var faults: [BellasReefSimulator.Service: BellasReefSimulator.Fault] = [:]

    init(options: BellasReefSimulator.Options, outlets: [SimulatedOutlet], probes: [SimulatedProbe]) {
        self.options = options
        self.outlets = outlets
        self.probes = probes
        startedAt = options.now()
    }

    func outletIndex(_ id: String) -> Int? {
        outlets.firstIndex { $0.id == id.lowercased() }
    }
}

/// A response the engines decided on, before it becomes an HTTP response.
struct ReefSimulatedResponse: Sendable {
    enum Body: Sendable {
        case json(JSONValue)
        /// `text/plain; charset=utf-8`, as FastAPI's unhandled-exception answer.
        case text(String)
    }

    var status: Int
    var body: Body
    var headers: [String: String] = [:]
    /// Waited before answering, outside the lock.
    var delay: Duration = .zero

    static func json(_ status: Int, _ body: JSONValue) -> ReefSimulatedResponse {
        ReefSimulatedResponse(status: status, body: .json(body))
    }

    static func detail(_ status: Int, _ text: String) -> ReefSimulatedResponse {
        .json(status, ["detail": .string(text)])
    }

    static func coded(_ status: Int, _ code: String, _ message: String) -> ReefSimulatedResponse {
        .json(status, ["detail": ["code": .string(code), "message": .string(message)]])
    }

    static let notFound = detail(404, "Not Found")
    static let internalError = ReefSimulatedResponse(status: 500, body: .text("Internal Server Error"))
    static let notAuthenticated = bearerChallenge(detail(401, "Not authenticated"))
    static let invalidCredentials = bearerChallenge(detail(401, "Could not validate credentials"))

    private static func bearerChallenge(_ response: ReefSimulatedResponse) -> ReefSimulatedResponse {
        var response = response
        response.headers["WWW-Authenticate"] = "Bearer"
        return response
    }
}

/// The request as the engines see it.
struct ReefSimulatedRequest: Sendable {
    let method: String
    /// Percent-decoded path segments after the leading slash.
    let segments: [String]
    /// Whether the raw path ended with `/` (FastAPI redirects when it should not, or should).
    let trailingSlash: Bool
    let rawQuery: String?
    let queryItems: [String: String]
    let headers: [String: String]
    let body: Data

    var bearerToken: String? {
        guard let value = headers["authorization"], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst("bearer ".count))
    }

    var isForm: Bool {
        headers["content-type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
    }
}
