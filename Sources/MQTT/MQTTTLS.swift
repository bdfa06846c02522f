/// TLS settings. With neither `caFile` nor `caPath`, the operating system's CA store is used.
public struct MQTTTLS: Sendable {
    public var caFile: String?
    public var caPath: String?
    public var certFile: String?
    public var keyFile: String?
    /// `false` disables hostname verification (`mosquitto_tls_insecure_set`); for tests only.
    public var verifyCertificate: Bool

    public init(
        caFile: String? = nil,
        caPath: String? = nil,
        certFile: String? = nil,
        keyFile: String? = nil,
        verifyCertificate: Bool = true
    ) {
        self.caFile = caFile
        self.caPath = caPath
        self.certFile = certFile
        self.keyFile = keyFile
        self.verifyCertificate = verifyCertificate
    }
}
