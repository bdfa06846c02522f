#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Logs through `inner` at the level a `LogControl` holds now, and hands warnings and errors to
/// the control to forward. A level set on the logger itself (a simulator's quiet logger) wins.
struct ControlledLogHandler: LogHandler {
    var inner: any LogHandler
    let label: String
    let control: LogControl
    private var ownLevel: Logger.Level?

    init(inner: any LogHandler, label: String, control: LogControl) {
        self.inner = inner
        self.label = label
        self.control = control
    }

    var logLevel: Logger.Level {
        get { ownLevel ?? control.level }
        set { ownLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        inner.log(event: event)
        guard event.level >= .warning else { return }
        control.deliver(Self.record(of: event, metadata: inner.metadata, label: label))
    }

    /// The message with its metadata (sorted, `integration` aside: it names the logger), as the
    /// text log shows them: "Pi-hole is unavailable (error: timed out, instance: main)".
    static func record(of event: LogEvent, metadata: Logger.Metadata, label: String) -> LogRecord {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.filter { $0.key != "integration" }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let message = details.isEmpty ? "\(event.message)" : "\(event.message) (\(details.joined(separator: ", ")))"
        let logger = merged["integration"].map { "\($0)" } ?? label
        return LogRecord(level: event.level, message: message, logger: logger, time: Date())
    }
}

/// A `Logger` as a handler: what `LogControl.logger(wrapping:)` writes through.
struct LoggerAsHandler: LogHandler {
    let logger: Logger
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { logger.logLevel }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] ?? logger[metadataKey: key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        logger.log(
            level: event.level, event.message, error: event.error, metadata: metadata.merging(event.metadata ?? [:]) { $1 },
            source: event.source,
            file: event.file, function: event.function, line: event.line)
    }
}
