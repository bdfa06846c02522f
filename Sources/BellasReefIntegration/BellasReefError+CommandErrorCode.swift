import BellasReefAPI
import BridgeCore

extension BellasReefError: CommandErrorCoded {
    public var commandErrorCode: CommandErrorCode {
        switch code {
        // Backing off after refused credentials is still refused credentials; otherwise, busy.
        case .backingOff: lastLoginCode.map { BellasReefError($0, message).commandErrorCode } ?? .busy
        case .transport: timedOut ? .timeout : .upstreamUnavailable
        case .wrongCredentials, .unauthorized: .unauthorized
        case .badRequest, .outletDisabled: .upstreamRefused
        case .notFound: .notFound
        case .invalidID: .unknownTarget
        case .serviceOff: .conflict
        // 504 outlet_timeout: the controller waited for the plug in vain.
        case .outletTimeout: .timeout
        case .outletConnection, .server, .unexpectedResponse, .tls: .upstreamUnavailable
        }
    }
}
