import BridgeCore

/// The fuzz targets' way in (Sources/Fuzz): the command parser and the configuration reader,
/// with nothing started. Package access: nothing outside this package sees it.
package enum PiHoleIntegrationFuzzing {
    package static func parseCommand(_ request: CommandRequest) {
        _ = try? PiHoleCommand.parse(request, instanceIDs: ["main", "backup"], defaultPause: 10)
    }

    package static func readConfiguration(_ section: ConfigSection) {
        _ = try? PiHoleConfiguration(section)
    }
}
