#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// The log settings a running bridge can change (`bridge/request/log_level`, a reload), and where
/// its warnings and errors go besides standard error (`bridge/logging`). Loggers made through it
/// (`LogSetup.bootstrap(control:)`, `logger(wrapping:)`) read them at every log call.
public final class LogControl: Sendable {
    private let levelIndex: Atomic<Int>
    private let formatIndex: Atomic<Int>
    /// `--log-format` was given: a reload keeps it rather than the file's `bridge.log_format`.
    public let isFormatPinned: Bool
    private let sink = Mutex<(@Sendable (LogRecord) -> Void)?>(nil)

    public init(level: Logger.Level = .info, format: BridgeConfiguration.LogFormat = .text, isFormatPinned: Bool = false) {
        levelIndex = Atomic(Self.levels.firstIndex(of: level)!)
        formatIndex = Atomic(Self.formats.firstIndex(of: format)!)
        self.isFormatPinned = isFormatPinned
    }

    public convenience init(_ configuration: BridgeConfiguration, formatOverride: BridgeConfiguration.LogFormat? = nil) {
        self.init(
            level: Logger.Level(configuration.logLevel), format: formatOverride ?? configuration.logFormat,
            isFormatPinned: formatOverride != nil)
    }

    private static let levels = Logger.Level.allCases
    private static let formats = BridgeConfiguration.LogFormat.allCases

    public var level: Logger.Level {
        get { Self.levels[levelIndex.load(ordering: .relaxed)] }
        set { levelIndex.store(Self.levels.firstIndex(of: newValue)!, ordering: .relaxed) }
    }

    public var format: BridgeConfiguration.LogFormat {
        get { Self.formats[formatIndex.load(ordering: .relaxed)] }
        set { formatIndex.store(Self.formats.firstIndex(of: newValue)!, ordering: .relaxed) }
    }

    /// The level and format of `configuration` (the format unless pinned), as at a start.
    func apply(_ configuration: BridgeConfiguration) {
        level = Logger.Level(configuration.logLevel)
        if !isFormatPinned { format = configuration.logFormat }
    }

    /// A logger that writes through `logger` whatever this control's level lets through (and
    /// `logger`'s own level too), and forwards warnings and errors: for a bridge run in-process.
    public func logger(wrapping logger: Logger) -> Logger {
        Logger(label: logger.label) { label in ControlledLogHandler(inner: LoggerAsHandler(logger: logger), label: label, control: self) }
    }

    /// Where warnings and errors go from now on (`nil`: nowhere but the log).
    func forward(to destination: (@Sendable (LogRecord) -> Void)?) {
        sink.withLock { $0 = destination }
    }

    func deliver(_ record: @autoclosure () -> LogRecord) {
        guard let destination = sink.withLock({ $0 }) else { return }
        destination(record())
    }
}

/// One warning or error, as `bridge/logging` carries it.
struct LogRecord: Sendable {
    let level: Logger.Level
    let message: String
    /// The integration that logged it, else the logger's label.
    let logger: String
    let time: Date
}

extension Logger.Level {
    public init(_ level: BridgeConfiguration.LogLevel) {
        self = Logger.Level(rawValue: level.rawValue) ?? .info
    }
}
