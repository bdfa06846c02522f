import AsyncHTTPClient
import NIOHTTP1
import Synchronization

/// `HTTPClient.Request`s whose URL is already parsed, by method and URL. AsyncHTTPClient parses
/// the URL of every request it is given as text (Foundation's `URL`, then its own split): 16.5 k
/// instructions, 2 % of a Pi-hole pause (issue 10). A bridge asks the same few URLs again and
/// again, so a parse is kept and its copy is given the call's own headers and body.
enum ParsedRequests {
    private struct Key: Hashable {
        let method: String  // HTTPMethod is not Hashable
        let url: String
    }

    /// Enough for every URL of 20 Pi-holes; URLs naming things come and go (rules, outlets,
    /// domains), so a full cache is emptied rather than grown.
    static let capacity = 256
    private static let parsed = Mutex<[Key: HTTPClient.Request]>([:])

    static func request(_ method: HTTPMethod, _ url: String, headers: HTTPHeaders, body: HTTPClient.Body?) throws -> HTTPClient.Request {
        let key = Key(method: method.rawValue, url: url)
        var request: HTTPClient.Request
        if let known = parsed.withLock({ $0[key] }) {
            request = known
        } else {
            request = try HTTPClient.Request(url: url, method: method)
            parsed.withLock { parsed in
                if parsed.count >= capacity { parsed.removeAll(keepingCapacity: true) }
                parsed[key] = request
            }
        }
        request.headers = headers
        request.body = body
        return request
    }
}
