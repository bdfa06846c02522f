import BridgeCore
import BridgeTestSupport
import Foundation
import Testing

/// Issue 11, bad input: a seeded, reproducible fuzz over every command topic of every
/// integration. Each case must get an error answer, no upstream write may happen, and the
/// bridge must go on answering. `HOME2MQTT_FUZZ_CASES` and `HOME2MQTT_FUZZ_SEED` run more, or others.
@Suite struct BadInputTests {
    static let environment = ProcessInfo.processInfo.environment
    static let cases = Int(environment["HOME2MQTT_FUZZ_CASES"] ?? "") ?? 300
    static let seed = UInt64(environment["HOME2MQTT_FUZZ_SEED"] ?? "") ?? 20_261_123

    @Test func everyBadCommandIsAnsweredWithAnErrorAndNeverReachesAnUpstream() async throws {
        try await AllIntegrations.run { all, observer in
            var corpus = FuzzCorpus(generator: SeededGenerator(seed: Self.seed))
            for index in 0..<Self.cases {
                let fuzz = corpus.next()
                let answer = try await observer.command(fuzz.topic, bytes: fuzz.payload)
                #expect(answer["status"] == "error", "case \(index) (seed \(Self.seed)): \(fuzz) → \(answer)")
            }
            #expect(all.upstreamWrites.values.allSatisfy { $0 == 0 }, "\(all.upstreamWrites)")
            // Still answering, and still doing what it is asked.
            #expect(try await observer.command("home/pihole/main/pause", "5")["status"] == "ok")
            #expect(try await observer.command("home/unifi/rule/downtime-emma/set", "OFF")["status"] == "ok")
            #expect(try await observer.command("home/reef/outlet/heater/set", "ON")["status"] == "ok")
        }
    }
}
