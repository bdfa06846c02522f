import Hummingbird

extension Response {
    /// The simulators' dropped-connection fault: promises a body, then fails while writing it, so
    /// Hummingbird closes the connection and the client sees it dropped mid-response (as when an
    /// appliance's web server crashes or a link goes down), not an answer it could read.
    public static func droppedConnection() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .contentLength: "64"],
            body: .init { _ in throw CancellationError() })
    }
}
