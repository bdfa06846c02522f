#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// Which site a configuration means. Pure: no I/O.
enum UniFiSiteSelection {
    /// `query` matches a site's UUID (any case), `internalReference` or name. Without a query,
    /// the controller's only site; with several, an error listing them all.
    static func choose(_ query: String?, from sites: [UniFiSite]) throws(UniFiError) -> UniFiSite {
        let listing = sites.map(\.description).joined(separator: ", ")
        guard let query = query?.trimmed(), !query.isEmpty else {
            guard sites.count == 1 else {
                throw UniFiError(
                    .siteSelection,
                    sites.isEmpty
                        ? "the controller has no site" : "the controller has \(sites.count) sites, name one of them: \(listing)")
            }
            return sites[0]
        }
        let matches =
            sites.filter { $0.id.lowercased() == query.lowercased() }.nonEmpty
            ?? sites.filter { $0.internalReference == query }.nonEmpty
            ?? sites.filter { $0.name == query }
        guard matches.count == 1 else {
            throw UniFiError(
                .siteSelection,
                matches.isEmpty
                    ? "no site named '\(query)' (by name, reference or id); the controller has: \(listing)"
                    : "several sites match '\(query)': \(matches.map(\.description).joined(separator: ", "))")
        }
        return matches[0]
    }
}

extension Array {
    fileprivate var nonEmpty: Self? { isEmpty ? nil : self }
}
