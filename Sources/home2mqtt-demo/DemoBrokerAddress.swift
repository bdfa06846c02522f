/// Where the demo's bridge and the user's `mosquitto_sub` meet, and whose broker it is.
struct DemoBrokerAddress: Sendable {
    let host: String
    let port: Int
    /// True when the demo started this broker and stops it at the end; false for one already running.
    let startedByDemo: Bool
}
