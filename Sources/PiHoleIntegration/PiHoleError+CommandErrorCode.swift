import BridgeCore
import PiHoleAPI

extension PiHoleError: CommandErrorCoded {
    public var commandErrorCode: CommandErrorCode {
        switch code {
        // Backing off after a wrong password is still a wrong password; after a lost answer, busy.
        case .backingOff: lastLoginCode.map { PiHoleError($0, message).commandErrorCode } ?? .busy
        case .transport: timedOut ? .timeout : .upstreamUnavailable
        case .wrongPassword, .twoFactorRequired, .unauthorized: .unauthorized
        case .rateLimited, .seatsExceeded: .busy
        // 403: the Pi-hole refuses the action itself (`allow_destructive` off), not the password.
        case .badRequest, .forbidden: .upstreamRefused
        case .notFound: .notFound
        case .duplicate: .conflict
        case .server, .unexpectedResponse, .tls: .upstreamUnavailable
        }
    }
}
