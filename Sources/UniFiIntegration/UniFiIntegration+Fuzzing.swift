import BridgeCore

/// The fuzz targets' way in (Sources/Fuzz): the configuration reader, with nothing started
/// (the UniFi commands are `SwitchCommand`s, fuzzed in BridgeCore). Package access: nothing
/// outside this package sees it.
package enum UniFiIntegrationFuzzing {
    package static func readConfiguration(_ section: ConfigSection) {
        _ = try? UniFiConfiguration(section)
    }
}
