/// Every fuzz target. Each takes arbitrary bytes and must neither trap, hang nor grow memory
/// beyond what the input justifies; the checks inside (round trips, a reference matcher) turn
/// a wrong answer into a trap too.
enum FuzzTarget: String, CaseIterable {
    case json, pihole, unifi, reef, command, config, topic

    func run(_ bytes: [UInt8]) {
        switch self {
        case .json: JSONFuzz.run(bytes)
        case .pihole: UpstreamFuzz.piHole(bytes)
        case .unifi: UpstreamFuzz.uniFi(bytes)
        case .reef: UpstreamFuzz.reef(bytes)
        case .command: CommandFuzz.run(bytes)
        case .config: ConfigFuzz.run(bytes)
        case .topic: TopicFuzz.run(bytes)
        }
    }
}
