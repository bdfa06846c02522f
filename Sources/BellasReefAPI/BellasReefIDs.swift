import PlainText

/// Ids checked before they go into a URL path. The controller answers a non-UUID outlet id with
/// a 503 whose message leaks SQL, so such an id is refused here, without a request.
enum BellasReefIDs {
    /// The canonical lowercase form of a UUID outlet id.
    static func outletID(_ id: String) throws -> String {
        guard let uuid = id.trimmed().lowercasedUUID else {
            throw BellasReefError(.invalidID, "outlet id '\(id.prefix(64))' is not a UUID")
        }
        return uuid
    }

    /// A 1-wire hardware id (`000000bd3685`, `28-000000bd3685`): letters, digits, `-` and `_`.
    static func hardwareID(_ id: String) throws -> String {
        let allowed = id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (UInt8(scalar.value).isASCIIAlphanumeric || scalar == "-" || scalar == "_")
        }
        guard allowed, !id.isEmpty, id.count <= 64 else {
            throw BellasReefError(.invalidID, "probe hardware id '\(id.prefix(64))' is not a 1-wire id")
        }
        return id
    }
}
