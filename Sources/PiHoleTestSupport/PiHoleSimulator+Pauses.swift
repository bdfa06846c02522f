import BridgeCore
import PiHoleSimulator

extension PiHoleSimulator {
    /// Each `POST /api/dns/blocking` with a timer, in order: the pause (seconds) it asked for,
    /// and the session (`X-FTL-SID`) that asked. A test that sends pauses of distinct lengths
    /// reads here which of its commands reached the Pi-hole, how often, and from which bridge.
    public var pauseCalls: [(seconds: Int, session: String?)] {
        requests.filter { $0.method == "POST" && $0.path == "/api/dns/blocking" }.compactMap { request in
            guard let seconds = JSONValue.parse(Array(request.body.utf8))?["timer"]?.numberValue else { return nil }
            return (Int(seconds), request.header("x-ftl-sid"))
        }
    }
}
