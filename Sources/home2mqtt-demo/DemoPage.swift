/// The bridge's page in the demo: on loopback, its controls behind a password everyone is told.
struct DemoPage: Sendable {
    static let password = "demo"
    let port: Int

    var url: String { "http://127.0.0.1:\(port)/" }
}
