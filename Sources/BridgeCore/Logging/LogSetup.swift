import Logging

/// Logs go to standard error: human-readable lines by default, one JSON object a line with
/// `bridge.log_format: json` (or `--log-format json`) for log shippers.
public enum LogSetup {
    public static func bootstrap(format: BridgeConfiguration.LogFormat, level: BridgeConfiguration.LogLevel) {
        let logLevel = Logger.Level(rawValue: level.rawValue) ?? .info
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler
            switch format {
            case .text: handler = StreamLogHandler.standardError(label: label)
            case .json: handler = JSONLogHandler(label: label)
            }
            handler.logLevel = logLevel
            return handler
        }
    }
}
