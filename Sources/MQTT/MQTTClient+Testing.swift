extension MQTTClient {
    /// Test hook: breaks the connection uncleanly (no DISCONNECT), so the broker publishes the will
    /// and the client goes through its normal reconnect path. Not for production use.
    @_spi(Testing)
    public func dropConnectionForTesting() {
        handle.shutdownSocketForTesting()
    }
}
