/// Everything one run measured, as plain values: what the table and the JSON line are made from.
public struct BenchmarkResults: Sendable, Equatable {
    /// One kind of command sent one at a time: publish → answer on the MQTT 5 response topic,
    /// and where measured, publish → the simulator received the upstream call (`upstreamCall`) and
    /// publish → the new state arrived on the object's state topic (`state`).
    public struct CommandLatency: Sendable, Equatable {
        public let kind: String
        public let latency: LatencySummary?
        public let failures: Int
        public let upstreamCall: LatencySummary?
        public let state: LatencySummary?

        public init(kind: String, latency: LatencySummary?, failures: Int, upstreamCall: LatencySummary? = nil, state: LatencySummary? = nil) {
            self.kind = kind
            self.latency = latency
            self.failures = failures
            self.upstreamCall = upstreamCall
            self.state = state
        }
    }

    /// Commands with `inFlight` outstanding at every moment, spread over several upstream objects.
    public struct Throughput: Sendable, Equatable {
        /// `all` (every object of every integration), or the one integration the commands went to.
        public let kind: String
        /// How many upstream objects they were spread over (each one command at a time).
        public let objects: Int
        public let inFlight: Int
        public let sent: Int
        public let answeredOK: Int
        public let answeredError: Int
        public let lost: Int
        public let seconds: Double
        public let latency: LatencySummary?

        public init(
            kind: String = Self.allKinds, objects: Int, inFlight: Int, sent: Int, answeredOK: Int, answeredError: Int, lost: Int,
            seconds: Double, latency: LatencySummary?
        ) {
            self.kind = kind
            self.objects = objects
            self.inFlight = inFlight
            self.sent = sent
            self.answeredOK = answeredOK
            self.answeredError = answeredError
            self.lost = lost
            self.seconds = seconds
            self.latency = latency
        }

        /// Answered commands per second, `ok` or not: the bridge answered them.
        public var commandsPerSecond: Double { seconds > 0 ? Double(answeredOK + answeredError) / seconds : 0 }

        public static let allKinds = "all"
    }

    /// The cheapest way to do what a command does, measured in the same run.
    public struct Floor: Sendable, Equatable {
        /// The floor: its two parts alternated, a round trip then a call, as a command meets them.
        public let alternated: FloorParts
        /// The same parts, each measured many times back to back: each then finds the caches and the threads the one before left warm, as no
        /// command does. A relay with none of the bridge's code stands at the alternated floor and
        /// 1.5 times above this one.
        public let backToBack: FloorParts
        /// Not part of the floor: a bare relay of the bridge's own parts (its MQTT client and its
        /// HTTP client on its event loop, nothing else) making that call per command.
        public let relay: LatencySummary?

        public init(alternated: FloorParts, backToBack: FloorParts = FloorParts(), relay: LatencySummary? = nil) {
            self.alternated = alternated
            self.backToBack = backToBack
            self.relay = relay
        }

        public var p50: Double? { alternated.p50 }
    }

    /// What the floor is made of.
    public struct FloorParts: Sendable, Equatable {
        /// Publish → the same client's subscription: one pass through the broker.
        public let brokerRoundTrip: LatencySummary?
        /// The pause's own `POST /api/dns/blocking` on a kept-alive connection to the same Pi-hole
        /// simulator.
        public let httpRequest: LatencySummary?

        public init(brokerRoundTrip: LatencySummary? = nil, httpRequest: LatencySummary? = nil) {
            self.brokerRoundTrip = brokerRoundTrip
            self.httpRequest = httpRequest
        }

        /// A command passes the broker twice (command in, answer out) and makes one API call.
        public var p50: Double? {
            guard let broker = brokerRoundTrip, let http = httpRequest else { return nil }
            return 2 * broker.p50 + http.p50
        }
    }

    /// Resident memory of the whole benchmark process (broker excluded: it is a child process).
    public struct Footprint: Sendable, Equatable {
        public let residentKiBAfterStart: Int?
        public let residentKiBAfterCommands: Int?
        public let strippedBinaryBytes: Int?

        public init(residentKiBAfterStart: Int?, residentKiBAfterCommands: Int?, strippedBinaryBytes: Int?) {
            self.residentKiBAfterStart = residentKiBAfterStart
            self.residentKiBAfterCommands = residentKiBAfterCommands
            self.strippedBinaryBytes = strippedBinaryBytes
        }
    }

    public let build: String
    public let commandsPerKind: Int
    public let commandLatency: [CommandLatency]
    public let floor: Floor
    /// Every object at 1, 8, 64, 256 in flight, then each kind alone (`throughputByKind`).
    public let throughput: [Throughput]
    public let throughputByKind: [Throughput]
    public let footprint: Footprint
    /// A paused Pi-hole's timer resumes blocking → `enabled` arrives on its state topic.
    public let freshness: LatencySummary?
    /// The real binary as a child process; `nil` when no binary was found or given.
    public let process: ProcessFootprint?
    /// The real binary with 20 Pi-holes, 1,000 rules and 100 outlets; `nil` when not measured.
    public let scale: ScaleFootprint?

    public init(
        build: String, commandsPerKind: Int, commandLatency: [CommandLatency], floor: Floor, throughput: [Throughput],
        throughputByKind: [Throughput] = [], footprint: Footprint, freshness: LatencySummary? = nil, process: ProcessFootprint? = nil,
        scale: ScaleFootprint? = nil
    ) {
        self.build = build
        self.commandsPerKind = commandsPerKind
        self.commandLatency = commandLatency
        self.floor = floor
        self.throughput = throughput
        self.throughputByKind = throughputByKind
        self.footprint = footprint
        self.freshness = freshness
        self.process = process
        self.scale = scale
    }

    /// The first in-flight level that answers less than 1.2 times as many commands a second as
    /// the level before: from there on, more in flight only queues, and latency climbs with it.
    public var saturatedInFlight: Int? {
        zip(throughput, throughput.dropFirst()).first { $1.commandsPerSecond < 1.2 * $0.commandsPerSecond }?.1.inFlight
    }

    /// The Pi-hole pause's p50 above the floor's, in milliseconds: what the bridge adds.
    public var addedLatencyP50: Double? { added(over: floor.alternated) }

    /// The Pi-hole pause's p50 over the floor's.
    public var bridgeOverFloorP50: Double? { ratio(over: floor.alternated) }

    /// The same two against the floor measured back to back, as every round before the eleventh.
    public var addedOverBackToBackFloorP50: Double? { added(over: floor.backToBack) }
    public var bridgeOverBackToBackFloorP50: Double? { ratio(over: floor.backToBack) }

    private func added(over parts: FloorParts) -> Double? {
        guard let bridge = piHolePause?.latency?.p50, let floor = parts.p50 else { return nil }
        return bridge - floor
    }

    private func ratio(over parts: FloorParts) -> Double? {
        guard let bridge = piHolePause?.latency?.p50, let floor = parts.p50, floor > 0 else { return nil }
        return bridge / floor
    }

    /// The bare relay's p50 above the floor's: what putting the parts together costs, before any
    /// of the bridge's own code.
    public var relayAddedP50: Double? {
        guard let relay = floor.relay?.p50, let floor = floor.p50 else { return nil }
        return relay - floor
    }

    /// The Pi-hole pause's p50 above the bare relay's: what the bridge's own code costs.
    public var addedOverRelayP50: Double? {
        guard let bridge = piHolePause?.latency?.p50, let relay = floor.relay?.p50 else { return nil }
        return bridge - relay
    }

    /// The command the floor is measured for: one call to the same simulator's endpoint.
    public var piHolePause: CommandLatency? { commandLatency.first { $0.kind == Self.piHolePauseKind } }

    public static let piHolePauseKind = "pihole pause"
    public static let unifiRuleSetKind = "unifi rule set"
    public static let reefOutletSetKind = "reef outlet set"
}
