import Foundation
import Testing
import UpstreamHTTP

@Suite struct SHA256Tests {
    private func hex(_ text: String) -> String {
        SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test func standardVectors() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func aMillionAs() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(
            digest.map { String(format: "%02x", $0) }.joined()
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func lengthsAroundTheBlockBoundary() {
        // 55, 56 and 64 bytes pad into one or two blocks: each digest differs and is 32 bytes.
        let digests = [55, 56, 63, 64, 65].map { SHA256.hash([UInt8](repeating: 0x61, count: $0)) }
        #expect(Set(digests).count == 5)
        #expect(digests.allSatisfy { $0.count == 32 })
        #expect(
            digests[1].map { String(format: "%02x", $0) }.joined()
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }
}
