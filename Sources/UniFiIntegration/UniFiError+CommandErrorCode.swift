import BridgeCore
import UniFiAPI

extension UniFiError: CommandErrorCoded {
    public var commandErrorCode: CommandErrorCode {
        switch code {
        case .unauthorized: .unauthorized
        case .rateLimited: .busy
        case .badRequest: .upstreamRefused
        case .notFound: .notFound
        // A rule the controller made, or a site that is not one: how things stand, not the payload.
        case .readOnly, .siteSelection: .conflict
        case .transport: timedOut ? .timeout : .upstreamUnavailable
        case .server, .unexpectedResponse, .tls: .upstreamUnavailable
        }
    }
}
