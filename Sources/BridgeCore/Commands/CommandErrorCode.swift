/// What kind of failure a command met, for a program to act on: one word in every error answer
/// (`"code"`), the same from every integration and from the bridge's own requests. The message
/// beside it is for a person and may change; a code keeps its meaning (docs/topics.md, "Error codes").
public enum CommandErrorCode: String, Sendable, CaseIterable {
    /// The payload is not what the topic takes: fix the command, sending it again will not help.
    case invalidPayload = "invalid_payload"
    /// The topic names nothing the bridge has: no such command, instance, scene, rule, outlet or group.
    case unknownTarget = "unknown_target"
    /// The appliance has no such thing (a client, a voucher), or it went away meanwhile.
    case notFound = "not_found"
    /// Refused by how things stand, not by the payload: the Default group, a rule the controller
    /// made, feed mode not configured, a file a reload refuses, a save that failed.
    case conflict
    /// The appliance could not be reached, or did not answer as it should: try again later.
    case upstreamUnavailable = "upstream_unavailable"
    /// The appliance answered and refused (its own code is in the message): sending the same again will not help.
    case upstreamRefused = "upstream_refused"
    /// The appliance refused the bridge's credentials: the configuration needs a look.
    case unauthorized
    /// No answer in time: the command's time limit, the appliance's, or the command's message
    /// expiry while it waited. It may have been carried out: read the state before sending again.
    case timeout
    /// Too many commands waiting, or the appliance asks the bridge to slow down: try again shortly.
    case busy
    /// The bridge is starting or stopping, or the integration is being reloaded: send it again
    /// once the bridge is back online.
    case notReady = "not_ready"
}

/// An error that says which code a command that met it answers with: an appliance's API error.
public protocol CommandErrorCoded: Error {
    var commandErrorCode: CommandErrorCode { get }
}

extension CommandError {
    /// `"<prefix>: <error>"`, coded by what `error` says (an appliance's API error), and as a
    /// shutdown for a cancellation; any other error is an unreachable upstream.
    public init(_ prefix: String, failure error: any Error) {
        let code: CommandErrorCode =
            switch error {
            case let coded as any CommandErrorCoded: coded.commandErrorCode
            case is CancellationError: .notReady
            default: .upstreamUnavailable
            }
        self.init("\(prefix): \(error)", code: code)
    }

    /// Several failures (one per Pi-hole, say) as one: their messages, and the first one's code.
    public init(combining errors: [CommandError]) {
        self.init(errors.map(\.message).joined(separator: "; "), code: errors.first?.code ?? .upstreamUnavailable)
    }
}
