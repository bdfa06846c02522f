#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// The fuzz targets' way in (Sources/Fuzz): `body` read as every answer the client reads, through
/// the same readers, so that what the controller's services can send is tried without a network.
/// Package access: nothing outside this package sees it.
package enum BellasReefWireFuzzing {
    package static func readEveryAnswer(_ body: Data) {
        decode(BellasReefHealth.self, body)
        decode(BellasReefHostInfo.self, body)
        decode(BellasReefSystemUsage.self, body)
        decode([BellasReefProbe].self, body)
        decode(Double.self, body)
        decode([BellasReefOutlet].self, body)
        decode(BellasReefClient.TokenGrant.self, body)
        if let value = JSONValue.parse(body) {
            _ = BellasReefOutletState(json: value)
            _ = BellasReefClient.message(value)
        }
        for contentType in ["application/json", "text/plain", nil] {
            _ = BellasReefErrorMapping.error(status: 503, contentType: contentType, body: body, context: .authenticated)
        }
        let text = String(decoding: body, as: UTF8.self)
        _ = JWTPayload.expiry(of: text)
        _ = try? BellasReefIDs.outletID(text)
        _ = try? BellasReefIDs.hardwareID(text)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: Data) {
        _ = JSONValue.decode(type, from: body)
    }
}
