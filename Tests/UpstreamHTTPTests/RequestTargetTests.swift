import Testing
@testable import UpstreamHTTP

/// The URL split the HTTP client does by hand: where to connect, the `Host` header, what to ask for.
@Suite struct RequestTargetTests {
    @Test func aBaseAndAPathMakeTheRequest() throws {
        let target = try RequestTarget("http://192.168.1.2/api/dns/blocking")
        #expect(!target.isHTTPS && target.host == "192.168.1.2" && target.port == 80)
        #expect(target.hostHeader == "192.168.1.2")
        #expect(target.pathAndQuery == "/api/dns/blocking")
    }

    @Test func aPortOtherThanTheSchemesGoesInTheHostHeader() throws {
        let target = try RequestTarget("HTTPS://unifi.local:8443/proxy/network/integration/v1/sites?offset=0&limit=200")
        #expect(target.isHTTPS && target.host == "unifi.local" && target.port == 8443)
        #expect(target.hostHeader == "unifi.local:8443")
        #expect(target.pathAndQuery == "/proxy/network/integration/v1/sites?offset=0&limit=200")
        #expect(try RequestTarget("https://pi.hole:443/x").hostHeader == "pi.hole")
    }

    @Test func anIPv6LiteralKeepsItsBracketsOnlyInTheHostHeader() throws {
        let withPort = try RequestTarget("http://[::1]:8000/health")
        #expect(withPort.host == "::1" && withPort.port == 8000 && withPort.hostHeader == "[::1]:8000")
        let without = try RequestTarget("http://[fe80::1]")
        #expect(without.host == "fe80::1" && without.port == 80 && without.pathAndQuery == "/")
    }

    @Test func aQueryWithoutAPathStillStartsWithASlash() throws {
        #expect(try RequestTarget("http://reef:8004?unit=C").pathAndQuery == "/?unit=C")
    }

    @Test(arguments: ["ftp://host/x", "host/x", "http://", "http://:80/x", "http://host:0/", "http://host:99999/", "http://host:x/", "http://user@host/"])
    func whatIsNoHTTPURLWithAHostIsRefused(_ url: String) {
        #expect(throws: UpstreamError.self) { try RequestTarget(url) }
    }
}
