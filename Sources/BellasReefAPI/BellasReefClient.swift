#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import Logging
import NIOHTTP1
import Synchronization
import UpstreamHTTP

/// Client of a Bella's Reef controller: the core (8000), temperature (8004) and smart-outlet
/// (8005) services, with one token for all three (see ``BellasReefAuthStateMachine``).
///
/// The `UpstreamHTTPClient` is made and shut down by the owner (who decides its TLS settings).
public actor BellasReefClient {
    let connection: BellasReefConnection
    let httpClient: UpstreamHTTPClient
    let logger: Logger
    let now: @Sendable () -> Date

    var machine = BellasReefAuthStateMachine() {
        didSet { logins.store(machine.loginCount, ordering: .relaxed) }
    }
    /// `machine.loginCount`, for readers outside the actor: asking the actor costs every
    /// operation that records its logins two jobs on the event loop.
    private let logins = Atomic(0)
    /// Callers waiting for the login or refresh another caller performs.
    var tokenWaiters: [CheckedContinuation<String, any Error>] = []

    public init(
        connection: BellasReefConnection,
        httpClient: UpstreamHTTPClient,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.connection = connection
        self.httpClient = httpClient
        self.logger = logger
        self.now = now
    }

    /// Logins attempted (successful or not), refreshes included only when they fell back to a login.
    public nonisolated var loginCount: Int { logins.load(ordering: .relaxed) }
    /// Refreshes attempted (successful or not).
    public var refreshCount: Int { machine.refreshCount }

    // MARK: - Every service

    /// `GET /health` of `service`; needs no token.
    public func health(_ service: BellasReefService) async throws -> BellasReefHealth {
        let response = try await send(service, .GET, "/health", token: nil)
        return try decodeSuccess(BellasReefHealth.self, response, what: "\(service.rawValue) health")
    }

    // MARK: - Core

    /// `GET /api/host-info`.
    public func hostInfo() async throws -> BellasReefHostInfo {
        let response = try await authenticated(.core, .GET, "/api/host-info")
        return try decodeSuccess(BellasReefHostInfo.self, response, what: "host info")
    }

    /// `GET /api/system-usage`.
    public func systemUsage() async throws -> BellasReefSystemUsage {
        let response = try await authenticated(.core, .GET, "/api/system-usage")
        return try decodeSuccess(BellasReefSystemUsage.self, response, what: "system usage")
    }

    // MARK: - Temperature

    /// `GET /probe/list`. A 404 means this build has no probe routes: `.noProbeRoutes`, not an error.
    public func probes() async throws -> BellasReefProbeList {
        let response = try await authenticated(.temperature, .GET, "/probe/list", maxBodySize: AnswerSize.list)
        if response.status == 404 { return .noProbeRoutes }
        return .probes(try decodeSuccess([BellasReefProbe].self, response, what: "probe list"))
    }

    /// `GET /probe/{hardware_id}/current?unit=C|F` → a bare JSON number.
    /// An unregistered probe is a 404 (`.notFound`).
    public func probeReading(hardwareID: String, unit: BellasReefTemperatureUnit) async throws -> Double {
        let id = try BellasReefIDs.hardwareID(hardwareID)
        let response = try await authenticated(.temperature, .GET, "/probe/\(id)/current", query: "unit=\(unit.rawValue)")
        return try decodeSuccess(Double.self, response, what: "probe reading")
    }

    // MARK: - Smart outlets

    static let outletsPath = "/api/smartoutlets/outlets/"

    /// `GET /api/smartoutlets/outlets/` (with the slash: without it the controller redirects).
    /// Disabled outlets are listed only with `includeDisabled`.
    public func outlets(includeDisabled: Bool) async throws -> [BellasReefOutlet] {
        let response = try await authenticated(
            .outlets, .GET, Self.outletsPath, query: includeDisabled ? "include_disabled=true" : nil, maxBodySize: AnswerSize.list)
        return try decodeSuccess([BellasReefOutlet].self, response, what: "outlet list")
    }

    /// `GET …/outlets/{id}/state`. The id must be a UUID (checked before any request).
    public func outletState(_ id: String) async throws -> BellasReefOutletState {
        let response = try await authenticated(.outlets, .GET, try Self.outletPath(id, "state"))
        return try readSuccess(response, what: "outlet state", BellasReefOutletState.init(json:))
    }

    /// `POST …/outlets/{id}/turn_on` → the controller's message.
    @discardableResult
    public func turnOn(_ id: String) async throws -> String {
        try await switchOutlet(id, "turn_on")
    }

    /// `POST …/outlets/{id}/turn_off` → the controller's message.
    @discardableResult
    public func turnOff(_ id: String) async throws -> String {
        try await switchOutlet(id, "turn_off")
    }

    /// `POST …/outlets/{id}/toggle` → the new state.
    public func toggle(_ id: String) async throws -> BellasReefOutletState {
        let response = try await authenticated(.outlets, .POST, try Self.outletPath(id, "toggle"))
        return try readSuccess(response, what: "outlet state", BellasReefOutletState.init(json:))
    }

    private func switchOutlet(_ id: String, _ action: String) async throws -> String {
        let response = try await authenticated(.outlets, .POST, try Self.outletPath(id, action))
        return try readSuccess(response, what: "\(action) answer", Self.message)
    }

    static func outletPath(_ id: String, _ action: String) throws -> String {
        outletsPath + (try BellasReefIDs.outletID(id)) + "/" + action
    }

    /// The object's `message`, `""` when it has none: the controller's documents give its answer
    /// no schema. Nil for what is no object, or a `message` that is no string.
    static func message(_ body: JSONValue) -> String? {
        switch body["message"] {
        case .string(let text)?: text
        case .null?, nil: body.objectValue == nil ? nil : ""
        default: nil
        }
    }
}
