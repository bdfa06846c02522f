import Logging

/// Logs go to standard error: human-readable lines by default, one JSON object a line with
/// `bridge.log_format: json` (or `--log-format json`) for log shippers. Level and format are read
/// from `control` at every log call, so that a running bridge can change them.
public enum LogSetup {
    public static func bootstrap(control: LogControl) {
        LoggingSystem.bootstrap { label in
            ControlledLogHandler(inner: FormatChoosingHandler(label: label, control: control), label: label, control: control)
        }
    }
}

/// Text or JSON lines, whichever `control` says now.
private struct FormatChoosingHandler: LogHandler {
    var text: StreamLogHandler
    var json: JSONLogHandler
    let control: LogControl

    init(label: String, control: LogControl) {
        text = StreamLogHandler.standardError(label: label)
        json = JSONLogHandler(label: label)
        self.control = control
        // The control decides what is logged; these write whatever reaches them.
        text.logLevel = .trace
        json.logLevel = .trace
    }

    var logLevel: Logger.Level {
        get { control.level }
        set {}
    }

    var metadata: Logger.Metadata {
        get { json.metadata }
        set {
            text.metadata = newValue
            json.metadata = newValue
        }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { json[metadataKey: key] }
        set {
            text[metadataKey: key] = newValue
            json[metadataKey: key] = newValue
        }
    }

    func log(event: LogEvent) {
        switch control.format {
        case .text: text.log(event: event)
        case .json: json.log(event: event)
        }
    }
}
