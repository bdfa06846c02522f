#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// The fuzz targets' way in (Sources/Fuzz): `body` read as every answer the client reads, through
/// the same readers, so that what an appliance can send is tried without a network. Package
/// access: nothing outside this package sees it.
package enum PiHoleWireFuzzing {
    package static func readEveryAnswer(_ body: Data) {
        _ = JSONValue.parse(body).flatMap(PiHoleWire.blockingStatus)
        decode(PiHoleWire.AuthResponse.self, body)
        decode(PiHoleWire.HostResponse.self, body)
        decode(PiHoleWire.VersionResponse.self, body)
        decode(PiHoleWire.ProcessedResponse.self, body)
        decode(PiHoleWire.SummaryResponse.self, body)
        decode(PiHoleWire.QueriesResponse.self, body)
        decode(PiHoleWire.SessionsResponse.self, body)
        decode(PiHoleWire.MaxSessionsResponse.self, body)
        decode(PiHoleWire.CountResponse.self, body)
        decode(PiHoleWire.StatusResponse.self, body)
        decode(PiHoleWire.SearchResponse.self, body)
        decode(PiHoleWire.ClientsResponse.self, body)
        _ = JSONValue.decode(PiHoleWire.GroupsResponse.self, from: body)?.groups.map(PiHoleClient.group)
        for status in [400, 401, 404, 429, 500] {
            _ = PiHoleErrorMapping.error(status: status, body: body, retryAfterHeader: nil, context: .login)
        }
        var gravity = PiHoleGravityOutput()
        gravity.append(body)
        _ = gravity.result
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: Data) {
        _ = JSONValue.decode(type, from: body)
    }
}
