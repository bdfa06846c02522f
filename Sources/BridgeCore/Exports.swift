// Every integration speaks JSONValue and runs on the bridge's runtime (its event loop, timers,
// time limits, wake-ups); importing BridgeCore is enough to use them.
@_exported import BridgeRuntime
@_exported import JSONDocument
