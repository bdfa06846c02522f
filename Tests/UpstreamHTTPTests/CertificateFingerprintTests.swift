import Testing
import UpstreamHTTP

@Suite struct CertificateFingerprintTests {
    static let canonical =
        "BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"

    @Test func fingerprintOfBytesIsUppercaseHexPairs() {
        #expect(CertificateFingerprint(der: Array("abc".utf8)).description == Self.canonical)
    }

    @Test func parsesWhatUsersPaste() throws {
        let expected = CertificateFingerprint(der: Array("abc".utf8))
        for pasted in [
            Self.canonical,
            Self.canonical.lowercased(),
            "  " + Self.canonical.replacingOccurrences(of: ":", with: "") + "\n",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ] {
            #expect(try CertificateFingerprint(parsing: pasted) == expected, "\(pasted)")
        }
    }

    @Test(arguments: [
        "", "BA:78", "zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015adff",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect {
            try CertificateFingerprint(parsing: text)
        } throws: { error in
            (error as? TrustSettingError)?.message.contains("SHA-256") == true
        }
    }
}
