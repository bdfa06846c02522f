#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of the client's own network thread: connect, run `mosquitto_loop`, and after any loss
/// back off (per `MQTTReconnectPolicy`) and reconnect, until the core's stop signal is raised.
/// It is the only code that calls connect/reconnect/loop/disconnect on the handle.
struct NetworkLoop: Sendable {
    let handle: MosquittoHandle
    let core: ClientCore
    let configuration: MQTTConfiguration

    /// How long `mosquitto_loop` may block; also the worst-case latency of noticing a stop request.
    private static let loopTimeoutMilliseconds: Int32 = 100
    /// After a stop request, how long to keep looping so the DISCONNECT packet gets written.
    private static let drainTimeout: Duration = .seconds(2)

    func run() {
        var failures = 0
        var needsConnect = true
        var firstAttempt = true
        var disconnectRequestedAt: ContinuousClock.Instant?

        while true {
            if core.stop.isStopped {
                if needsConnect { break }
                if let requestedAt = disconnectRequestedAt {
                    if ContinuousClock.now - requestedAt > Self.drainTimeout { break }
                } else {
                    disconnectRequestedAt = .now
                    // A clean DISCONNECT, so the broker discards the will.
                    if handle.disconnect() != MosquittoLibrary.success { break }
                }
            }

            if needsConnect {
                let rc =
                    firstAttempt
                    ? handle.connect(
                        host: configuration.host, port: configuration.port, keepAlive: configuration.keepAlive,
                        sessionExpiry: configuration.sessionExpiry)
                    : handle.reconnect()
                firstAttempt = false
                if rc == MosquittoLibrary.success {
                    needsConnect = false
                } else {
                    let text = "could not connect to \(configuration.host):\(configuration.port): \(MosquittoLibrary.errorText(rc))"
                    core.connectAttemptFailed(text)
                    core.logger.debug("MQTT connect attempt failed", metadata: ["error": "\(text)"])
                    failures += 1
                    if backOff(failures: failures) { break }
                }
                continue
            }

            let rc = isReading
                ? handle.loop(timeoutMilliseconds: Self.loopTimeoutMilliseconds)
                : handle.pollLoop(timeoutMilliseconds: Self.loopTimeoutMilliseconds, reading: false)
            if core.state.withLock({ state in
                defer { state.connackSucceededSinceLastCheck = false }
                return state.connackSucceededSinceLastCheck
            }) {
                failures = 0
            }
            if rc != MosquittoLibrary.success {
                needsConnect = true
                if core.stop.isStopped { break }
                // Kept for the "not connected" error when nothing said more (a CONNACK refusal does):
                // a TLS handshake refused here rather than in the connect (a broker certificate for
                // another name) would otherwise give no reason at all.
                core.state.withLock { state in
                    if state.lastError == nil { state.lastError = MosquittoLibrary.errorText(rc) }
                }
                failures += 1
                if backOff(failures: failures) { break }
            }
        }
        core.finish()
    }

    /// False once `stopReceiving()` asked for no more reads; says so to the waiting caller.
    private var isReading: Bool {
        let (reading, justStopped) = core.state.withLock { state in
            guard state.receivingStopRequested else { return (true, false) }
            defer { state.receivingStopped = true }
            return (false, !state.receivingStopped)
        }
        if justStopped { core.changes.signal() }
        return reading
    }

    /// Waits the policy's delay; returns true if a stop was requested meanwhile.
    private func backOff(failures: Int) -> Bool {
        let delay = configuration.reconnect.delay(afterFailures: failures, random: Double.random(in: 0..<1))
        core.logger.debug("MQTT reconnecting after back-off", metadata: ["failures": "\(failures)", "delay": "\(delay)"])
        return core.stop.wait(for: delay)
    }
}
