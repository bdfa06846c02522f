import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// One service's HTTP listener on loopback. `port: 0` picks a free port the first time; a
/// later `start()` (after `stop()` or the `.down` fault) listens on the same port again.
final class ReefListener: Sendable {
    private struct Running: Sendable {
        var task: Task<Void, Never>?
        var group: ServiceGroup?
        var port = 0
    }

    let host: String
    private let responder: ReefResponder
    private let logger: Logger
    private let running = NIOLockedValueBox(Running())

    init(host: String, responder: ReefResponder, logger: Logger) {
        self.host = host
        self.responder = responder
        self.logger = logger
    }

    var port: Int { running.withLockedValue { $0.port } }
    var isRunning: Bool { running.withLockedValue { $0.task != nil } }

    func start() async throws {
        let (alreadyRunning, port) = running.withLockedValue { ($0.task != nil, $0.port) }
        if alreadyRunning { return }
        let (boundPorts, announce) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: responder,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                announce.yield(channel.localAddress?.port ?? 0)
                announce.finish()
            },
            logger: logger)
        // A graceful shutdown closes idle keep-alive connections too, as a service going down does.
        var configuration = ServiceGroupConfiguration(services: [application], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: configuration)
        let logger = self.logger
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("Bella's Reef simulator listener stopped: \(error)")
            }
            announce.finish()
        }
        var ports = boundPorts.makeAsyncIterator()
        guard let bound = await ports.next(), bound != 0 else {
            task.cancel()
            await task.value
            throw BellasReefSimulatorError(message: "could not listen on \(host):\(port)")
        }
        running.withLockedValue { $0 = Running(task: task, group: group, port: bound) }
    }

    /// Stops listening and waits until the server has ended.
    func stop() async {
        let (task, group) = running.withLockedValue { running in
            defer {
                running.task = nil
                running.group = nil
            }
            return (running.task, running.group)
        }
        await group?.triggerGracefulShutdown()
        await task?.value
    }
}

/// The simulator could not start.
public struct BellasReefSimulatorError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "BellasReefSimulator: \(message)" }
}
