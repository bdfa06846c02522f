/// The real `home2mqtt` binary run as a child process against the run's broker and simulators:
/// what a small box holds and spends for the bridge alone, apart from the harness and the
/// simulators that share the benchmark's process.
public struct ProcessFootprint: Sendable, Equatable {
    /// Resident memory (`VmRSS`) once this many commands had been answered, and the part of it
    /// that is anonymous (`RssAnon`: heap, stacks, what the process wrote). The rest is clean pages
    /// of the binary and the shared libraries, which the kernel maps 64 KiB at a time around each
    /// page fault and may drop again under memory pressure.
    public struct Resident: Sendable, Equatable {
        public let commands: Int
        public let kib: Int
        public let anonymousKiB: Int?

        public init(commands: Int, kib: Int, anonymousKiB: Int? = nil) {
            self.commands = commands
            self.kib = kib
            self.anonymousKiB = anonymousKiB
        }
    }

    /// The binary measured, as given.
    public let binary: String
    /// Spawn → the retained `online` on the bridge's state topic.
    public let startToOnlineMs: Double?
    /// Spawn → the first state each integration publishes, by integration (`pihole`, `unifi`).
    public let startToFirstStateMs: [String: Double]
    /// After the start (every first state in), then after each batch of commands.
    public let resident: [Resident]
    /// Commands without an answer within their timeout.
    public let commandsLost: Int
    /// The process's CPU time (user + system) while it answered the batches of commands, polls
    /// included: what one command costs the bridge alone, without the broker and simulators.
    public let commandsCPUSeconds: Double?
    /// The CPU time the broker and the benchmark's own process (its MQTT client and the
    /// simulators) spent over the same batches: with the bridge's, what a command costs the
    /// machine, and so how many two cores can answer a second at most.
    public let brokerCPUSeconds: Double?
    public let harnessCPUSeconds: Double?
    public let idle: IdlePolling?

    public init(
        binary: String, startToOnlineMs: Double?, startToFirstStateMs: [String: Double], resident: [Resident],
        commandsLost: Int, commandsCPUSeconds: Double? = nil, brokerCPUSeconds: Double? = nil, harnessCPUSeconds: Double? = nil,
        idle: IdlePolling?
    ) {
        self.binary = binary
        self.startToOnlineMs = startToOnlineMs
        self.startToFirstStateMs = startToFirstStateMs
        self.resident = resident
        self.commandsLost = commandsLost
        self.commandsCPUSeconds = commandsCPUSeconds
        self.brokerCPUSeconds = brokerCPUSeconds
        self.harnessCPUSeconds = harnessCPUSeconds
        self.idle = idle
    }

    /// CPU microseconds per command sent: two cores divided by this bound what the bridge
    /// alone could answer a second, with an infinitely fast broker and upstreams.
    public var cpuMicrosecondsPerCommand: Double? { perCommand(commandsCPUSeconds) }
    public var brokerCPUMicrosecondsPerCommand: Double? { perCommand(brokerCPUSeconds) }
    public var harnessCPUMicrosecondsPerCommand: Double? { perCommand(harnessCPUSeconds) }

    /// The bridge's, the broker's and the harness's together: two cores divided by this bound
    /// what the run could answer a second, whatever any one of them does.
    public var allCPUMicrosecondsPerCommand: Double? {
        guard let bridge = cpuMicrosecondsPerCommand, let broker = brokerCPUMicrosecondsPerCommand,
              let harness = harnessCPUMicrosecondsPerCommand else { return nil }
        return bridge + broker + harness
    }

    private func perCommand(_ seconds: Double?) -> Double? {
        guard let seconds, let sent = resident.last?.commands, sent > 0 else { return nil }
        return seconds * 1e6 / Double(sent)
    }

    /// The slowest integration's first state: when the bridge has told everything it knows.
    public var startToAllFirstStatesMs: Double? { startToFirstStateMs.values.max() }

    /// Growth from the first sample after commands to the last: the ± 1 MiB of issue 10's "flat"
    /// is judged on this, once the first batch has settled the allocator's working set.
    public var residentGrowthAfterFirstBatchKiB: Int? {
        guard resident.count >= 3 else { return nil }
        return resident[resident.count - 1].kib - resident[1].kib
    }
}
