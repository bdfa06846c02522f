import BridgeCore

/// The fuzz targets' way in (Sources/Fuzz): the command parser and the configuration reader,
/// with nothing started. Package access: nothing outside this package sees it.
package enum UniFiIntegrationFuzzing {
    package static func parseCommand(_ request: CommandRequest) {
        _ = try? UniFiCommand.parse(request, controllers: ["home", "office"], presets: [1440])
    }

    package static func readConfiguration(_ section: ConfigSection) {
        _ = try? UniFiConfiguration(section)
    }
}
