#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// The fuzz targets' way in (Sources/Fuzz): `body` read as every answer the client reads, through
/// the same readers, so that what a console can send is tried without a network. Package
/// access: nothing outside this package sees it.
package enum UniFiWireFuzzing {
    package static func readEveryAnswer(_ body: Data) {
        _ = UniFiErrorMapping.error(status: 400, body: body, retryAfterHeader: nil)
        guard let value = JSONValue.parse(body) else { return }
        _ = try? value.decode(UniFiInfo.self)
        for kind in UniFiRuleKind.allCases {
            _ = try? UniFiRule(kind: kind, raw: value)
        }
        _ = UniFiPage(value)?.data.map { item in
            (UniFiRuleKind.allCases.map { kind in try? UniFiRule(kind: kind, raw: item) }, UniFiVoucher(item), try? UniFiClient.guestNetworkName(item))
        }
    }
}
