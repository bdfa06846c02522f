/// What `GET /api/search/{domain}` found: the domain entries and the gravity rows that match,
/// each with the ids of its groups.
public struct PiHoleSearchResult: Sendable, Equatable {
    /// An allow or deny entry, exact or regex.
    public struct Entry: Sendable, Equatable {
        public var id: Int
        public var domain: String
        public var list: PiHoleDomainList
        public var kind: PiHoleDomainKind
        public var enabled: Bool
        public var groupIDs: [Int]

        public init(id: Int, domain: String, list: PiHoleDomainList, kind: PiHoleDomainKind, enabled: Bool, groupIDs: [Int]) {
            self.id = id
            self.domain = domain
            self.list = list
            self.kind = kind
            self.enabled = enabled
            self.groupIDs = groupIDs
        }
    }

    /// A gravity row: `domain` (the name itself or an ABP pattern such as `||example^`) as the
    /// list at `address` holds it.
    public struct ListMatch: Sendable, Equatable {
        public var listID: Int
        public var address: String
        public var type: PiHoleListType
        public var domain: String
        public var enabled: Bool
        public var groupIDs: [Int]

        public init(listID: Int, address: String, type: PiHoleListType, domain: String, enabled: Bool, groupIDs: [Int]) {
            self.listID = listID
            self.address = address
            self.type = type
            self.domain = domain
            self.enabled = enabled
            self.groupIDs = groupIDs
        }
    }

    public var entries: [Entry]
    public var lists: [ListMatch]
    /// Matches in all, including those past the `N` asked for.
    public var total: Int

    public init(entries: [Entry], lists: [ListMatch], total: Int) {
        self.entries = entries
        self.lists = lists
        self.total = total
    }
}

/// A subscribed list blocks (gravity) or exempts from gravity ("antigravity").
public enum PiHoleListType: String, Sendable, Decodable {
    case block, allow
}

