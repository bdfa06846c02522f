import BridgeCore
import ServiceLifecycle
import UnixSignals

/// SIGHUP reloads the configuration, as `bridge/request/reload` does (the bridge logs the outcome).
/// The signal is trapped from the moment `hangups` is made, so an early one does not end the
/// process; one that comes while the bridge starts reloads once it has started.
struct ReloadOnHangup: Service, CustomStringConvertible {
    let bridge: Bridge
    let hangups: UnixSignalsSequence
    let description = "ReloadOnHangup"

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in hangups {
                await bridge.waitUntilServing(atMost: .seconds(60))
                _ = await bridge.reload()
            }
        }
    }
}
