import BridgeRuntime
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import SimulatorSupport
import Testing
import UpstreamHTTP

@Suite struct SimulatorListenerTests {
    /// The benchmark measures the bridge beside its simulators: they must not share its threads,
    /// nor cross to a dispatch worker and back for every request.
    @Test func aRequestIsHandledOnTheLoopThatReadItApartFromTheBridgesLoops() async throws {
        let router = Router(context: BasicRequestContext.self)
        router.get("/where") { _, _ -> String in
            guard let current = MultiThreadedEventLoopGroup.currentEventLoop else { return "a thread that is no event loop" }
            if current === BridgeEventLoop.loop { return "the bridge's loop" }
            if MultiThreadedEventLoopGroup.singleton.makeIterator().contains(where: { $0 === current }) { return "a loop the bridge may use" }
            return "a loop of the simulators' own"
        }
        var logger = Logger(label: "SimulatorListenerTests")
        logger.logLevel = .error
        let listener = SimulatorListener(name: "test", responder: router.buildResponder(), logger: logger)
        try await listener.start()
        let client = try UpstreamHTTPClient(tls: nil)
        do {
            let response = try await client.collect(
                .GET, "\(listener.baseURL)/where", headers: [:], body: nil, timeout: .seconds(10), maxBodySize: 1024)
            #expect(String(buffer: response.body) == "a loop of the simulators' own")
        } catch {
            Issue.record(error)
        }
        try await client.shutdown()
        await listener.stop()
    }
}

extension SimulatorListenerTests {
    /// A simulator its test lets go of shuts its listener down without waiting, while the bridge
    /// may still be connecting. Cancelling a Hummingbird server that has accepted a connection it
    /// has not yet handed out traps in NIO ("Deinited NIOAsyncWriter without calling finish()",
    /// seen in `scripts/test`; apple/swift-nio#3481), which ends the whole test run.
    @Test func aListenerLetGoOfWhileConnectionsArriveDoesNotTrap() async throws {
        var logger = Logger(label: "SimulatorListenerTests")
        logger.logLevel = .critical
        let router = Router(context: BasicRequestContext.self)
        for _ in 0..<300 {
            let listener = SimulatorListener(name: "test", responder: router.buildResponder(), logger: logger)
            try await listener.start()
            let connects = (0..<4).map { _ in
                ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: listener.port)
            }
            listener.shutDownWithoutWaiting()
            for connect in connects { try? await connect.get().close() }
            await listener.stop()
        }
    }
}
