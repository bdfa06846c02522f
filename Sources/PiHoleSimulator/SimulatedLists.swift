#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A subscribed list (`adlist`) and the domains its last gravity run imported: a block list,
/// or an allow list whose entries exempt domains from gravity ("antigravity").
struct SimulatedList: Sendable, Equatable {
    let id: Int
    let address: String
    /// `block` or `allow`.
    let type: String
    var enabled: Bool
    var groups: [Int]
    let added: Date
    /// As imported: host names, ABP `||domain^` (block) or `@@||domain^` (allow).
    var domains: [String]
}

