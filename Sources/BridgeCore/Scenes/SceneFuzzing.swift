/// The fuzz targets' way in (Sources/Fuzz): a scene command's parser, with nothing started.
package enum SceneFuzzing {
    package static func parseCommand(_ request: CommandRequest) {
        _ = try? SceneCommand.parse(request, scenes: ["bedtime"])
    }
}
