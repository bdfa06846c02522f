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

/// A configured client (`/api/clients`): an IP, a MAC, a host name, a subnet or an interface,
/// and the groups it is in.
struct SimulatedClient: Sendable, Equatable {
    let id: Int
    let client: String
    var groups: [Int]
    var comment: String?
    let added: Date
}
