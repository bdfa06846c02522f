import ArgumentParser
import BridgeCore

// `--log-format` and `--log-level` of `home2mqtt run` and of `home2mqtt-demo`.
extension BridgeConfiguration.LogFormat: ExpressibleByArgument {}
extension BridgeConfiguration.LogLevel: ExpressibleByArgument {}
