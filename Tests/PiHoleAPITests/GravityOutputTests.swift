import Testing

@testable import PiHoleAPI

@Suite("Gravity output reduced as it streams")
struct GravityOutputTests {
    @Test func linesSplitAcrossChunksAndCharacters() {
        var output = PiHoleGravityOutput()
        let text = Array("  [i] Target: x\n  [✓] Done.\n".utf8)
        // One byte at a time: cuts inside "✓" (three bytes) too.
        for byte in text { output.append([byte]) }
        #expect(output.result == PiHoleGravityResult(
            succeeded: true, lastLines: ["[i] Target: x", "[✓] Done."], failures: [], lineCount: 2))
    }

    @Test func ansiCodesAndRedrawnLines() {
        var output = PiHoleGravityOutput()
        output.append(Array("  [i] Building tree...\r\u{1B}[K  [\u{1B}[1;32m✓\u{1B}[0m] Building tree\n".utf8))
        output.append(Array("  [\u{1B}[1;31m✗\u{1B}[0m] Status: Not found\n\n   \n".utf8))
        output.append(Array("unterminated".utf8))
        let result = output.result
        #expect(result.lastLines == ["[✓] Building tree", "[✗] Status: Not found", "unterminated"])
        #expect(result.failures == ["[✗] Status: Not found"])
        #expect(!result.succeeded)
        #expect(result.lineCount == 3)
    }

    @Test func keepsOnlyTheTailAndTwentyFailures() {
        var output = PiHoleGravityOutput()
        for index in 0..<1000 { output.append(Array("[✗] failure \(index)\n".utf8)) }
        let result = output.result
        #expect(result.lineCount == 1000)
        #expect(result.lastLines == (990..<1000).map { "[✗] failure \($0)" })
        #expect(result.failures == (0..<20).map { "[✗] failure \($0)" })
        #expect(!result.succeeded)
    }
}
