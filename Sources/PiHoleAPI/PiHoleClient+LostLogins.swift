#if canImport(FoundationEssentials)
import BridgeRuntime
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import UpstreamHTTP

/// A login whose answer was lost on the way may still have made a session on the Pi-hole, which
/// then holds one of its seats (16 by default) for 30 minutes; enough of them lock everyone out,
/// the web interface included. Once the client has a session again, it ends those.
extension PiHoleClient {
    /// Lists the sessions with `sid` and ends every one that is this client's but not `sid`'s
    /// own: sent with the bridge's user agent, from the address the Pi-hole sees `sid`'s session
    /// come from. Anyone else's session is left alone. A failure is logged and tried again at
    /// the next login or at logout.
    func endSessionsOfLostLogins(using sid: String) async {
        do {
            let response = try await send(.GET, "/api/auth/sessions", body: nil, sid: sid, maxBodySize: AnswerSize.list)
            guard response.isSuccess else { throw mapFailure(response) }
            guard let sessions = JSONValue.decode(PiHoleWire.SessionsResponse.self, from: response.body)?.sessions else {
                throw PiHoleError.undecodable("session list", status: response.status)
            }
            guard let own = sessions.first(where: { $0.currentSession == true }) else {
                throw PiHoleError(.unexpectedResponse, "the session list does not mark this client's session as current")
            }
            let leftovers = sessions.filter {
                $0.currentSession != true && $0.userAgent == Product.userAgent && $0.remoteAddress == own.remoteAddress
            }.compactMap { Int(exactly: $0.id) }
            for id in leftovers {
                let answer = try await send(.DELETE, "/api/auth/session/\(id)", body: nil, sid: sid)
                // 404: it expired or was ended meanwhile, which is as good.
                guard answer.isSuccess || answer.status == 404 else { throw mapFailure(answer) }
            }
            machine.lostLoginSessionsEnded()
            logger.notice(
                "ended the Pi-hole sessions that logins with lost answers had left", metadata: ["sessions": "\(leftovers.count)"])
        } catch {
            logger.warning(
                "could not end the Pi-hole sessions that logins with lost answers may have left; trying again at the next login",
                metadata: ["error": "\(PiHoleError.mapping(error))", "logins": "\(machine.loginsWithLostAnswers)"])
        }
    }
}
