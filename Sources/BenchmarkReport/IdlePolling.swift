/// The bridge left alone with its polls, at intervals shorter than the defaults so that an hour's
/// work fits in minutes; the figures are scaled back to the default intervals by the number of
/// upstream requests, since polling is what an idle bridge does. Its resident memory is read at
/// the window's start and at each tenth of it: what an hour of polling leaves behind.
public struct IdlePolling: Sendable, Equatable {
    /// One integration's upstream requests during the window.
    public struct Upstream: Sendable, Equatable {
        public let integration: String
        public let requests: Int
        public let logins: Int
        /// The poll interval of the window, and the default one, in seconds.
        public let compressedInterval: Int
        public let defaultInterval: Int

        public init(integration: String, requests: Int, logins: Int, compressedInterval: Int, defaultInterval: Int) {
            self.integration = integration
            self.requests = requests
            self.logins = logins
            self.compressedInterval = compressedInterval
            self.defaultInterval = defaultInterval
        }

        /// The window's requests, at the default interval, over an hour.
        func requestsPerHour(window seconds: Double) -> Double {
            Double(requests) * Double(compressedInterval) / Double(defaultInterval) * 3_600 / seconds
        }

        /// Logins follow sessions, not polls: scaled by time only.
        func loginsPerHour(window seconds: Double) -> Double {
            Double(logins) * 3_600 / seconds
        }

        /// The hours at the default interval whose polls a window of `seconds` holds.
        func hoursAtDefaults(window seconds: Double) -> Double {
            seconds / Double(compressedInterval) * Double(defaultInterval) / 3_600
        }
    }

    /// The child's resident memory (`VmRSS`, and `RssAnon` of it) this many seconds into the window.
    public struct Resident: Sendable, Equatable {
        public let seconds: Double
        public let kib: Int
        public let anonymousKiB: Int?

        public init(seconds: Double, kib: Int, anonymousKiB: Int? = nil) {
            self.seconds = seconds
            self.kib = kib
            self.anonymousKiB = anonymousKiB
        }
    }

    /// Wall time of the window, and the child's CPU time (user + system) in it.
    public let seconds: Double
    public let cpuSeconds: Double
    public let upstreams: [Upstream]
    /// At the window's start, then at each tenth of it.
    public let resident: [Resident]

    public init(seconds: Double, cpuSeconds: Double, upstreams: [Upstream], resident: [Resident] = []) {
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.upstreams = upstreams
        self.resident = resident
    }

    /// The window that holds one hour of every upstream's polls at its default interval, in whole
    /// seconds: the least compressed upstream decides (the Pi-hole's 1 s for 5 s: 720 s).
    public static func secondsForOneHour(compressedAndDefaultIntervals intervals: [(compressed: Int, defaults: Int)]) -> Int {
        intervals.map { 3_600 * $0.compressed / $0.defaults }.max() ?? 0
    }

    public func requestsPerHour(_ upstream: Upstream) -> Double { upstream.requestsPerHour(window: seconds) }
    public func loginsPerHour(_ upstream: Upstream) -> Double { upstream.loginsPerHour(window: seconds) }

    /// The hours of polling at the default intervals the window held, for the upstream that had
    /// the fewest: "an hour of polling all integrations" is a window where this is 1 or more.
    public var hoursAtDefaults: Double? {
        upstreams.map { $0.hoursAtDefaults(window: seconds) }.min()
    }

    /// The last sample less the first.
    public var residentGrowthKiB: Int? {
        guard let first = resident.first, let last = resident.last, resident.count >= 2 else { return nil }
        return last.kib - first.kib
    }

    /// CPU seconds per hour at the default intervals: the window's CPU time per upstream request,
    /// times the requests an hour at the defaults makes. An upper bound, as the window's CPU
    /// time also holds what does not follow the polls (MQTT keep-alives, timers).
    public var cpuSecondsPerHourAtDefaults: Double? {
        let requests = upstreams.reduce(0) { $0 + $1.requests }
        guard requests > 0, seconds > 0 else { return nil }
        let perHour = upstreams.reduce(0.0) { $0 + requestsPerHour($1) }
        return cpuSeconds / Double(requests) * perHour
    }
}
