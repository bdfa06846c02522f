import BridgeCore
import Testing

/// Every error answer carries a code a program can act on, beside the message for a person.
@Suite struct CommandErrorCodeTests {
    private struct RateLimited: CommandErrorCoded, CustomStringConvertible {
        var commandErrorCode: CommandErrorCode { .busy }
        var description: String { "429: slow down" }
    }

    private struct Unexplained: Error, CustomStringConvertible {
        var description: String { "connection reset" }
    }

    @Test func anErrorAnswerCarriesItsCodeBesideTheMessage() {
        let answer = CommandResponse(result: .failure(CommandError("unknown scene 'x'", code: .unknownTarget)), transaction: "t-1").payload
        #expect(answer == ["status": "error", "error": "unknown scene 'x'", "code": "unknown_target", "transaction": "t-1"])
        // A payload the topic does not take is the code of most refusals, and says so.
        #expect(CommandResponse(result: .failure(CommandError("pause takes a number")), transaction: nil).payload["code"] == "invalid_payload")
        #expect(CommandResponse(result: .success(nil), transaction: nil).payload["code"] == nil)
    }

    @Test func anUpstreamFailureIsCodedByWhatItSays() {
        #expect(CommandError("main", failure: RateLimited()) == CommandError("main: 429: slow down", code: .busy))
        #expect(CommandError("main", failure: CancellationError()).code == .notReady)
        #expect(CommandError("main", failure: Unexplained()) == CommandError("main: connection reset", code: .upstreamUnavailable))
    }

    @Test func failuresCombinedKeepTheFirstOnesCode() {
        let combined = CommandError(combining: [CommandError("alpha: gone", code: .notFound), CommandError("beta: down", code: .timeout)])
        #expect(combined == CommandError("alpha: gone; beta: down", code: .notFound))
    }
}
