import PlainText
import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything the bridge last saw of the controller; the payloads are made from it
/// (`ReefPayloads`), and each poller changes only its own part.
struct ReefSnapshot: Sendable {
    var services: [BellasReefService: ServiceStatus] = [:]
    var hostInfo: BellasReefHostInfo?
    var systemUsage: BellasReefSystemUsage?
    var systemReadAt: Date?

    /// By outlet id; `outletsListed` once the list was read (until then no outlet is known).
    var outlets: [String: OutletStatus] = [:]
    var outletKeys = TopicKeys()
    var outletsListed = false
    /// By hardware address.
    var probes: [String: ProbeStatus] = [:]
    var probeKeys = TopicKeys()
    var probesListed = false
    /// `false` once the temperature service answered `/probe/list` with 404 (the newest build).
    var probeRoutes = true

    /// Restores already carried out whose timers the store has not dropped yet: they are no
    /// longer pending for anyone reading the state.
    var completedRestores: [PersistedTimer] = []

    func service(_ service: BellasReefService) -> ServiceStatus { services[service] ?? ServiceStatus() }

    /// Whether every list of things among `services` has been read once: until then the runtime
    /// entities are not all known, and reporting some would remove the others from Home Assistant
    /// (a service that answers late, or is down at start, keeps its entities meanwhile).
    func everyListRead(of services: [BellasReefService]) -> Bool {
        (!services.contains(.outlets) || outletsListed) && (!services.contains(.temperature) || probesListed)
    }

    /// Takes a new outlet list: known outlets keep what was read of them and their key (while
    /// they keep their name), gone ones are dropped.
    mutating func replaceOutlets(_ list: [BellasReefOutlet]) {
        outlets = Self.relisted(list, old: outlets, keys: &outletKeys, id: \.id, name: \.name)
        outletsListed = true
    }

    mutating func replaceProbes(_ list: [BellasReefProbe]) {
        probes = Self.relisted(list, old: probes, keys: &probeKeys, id: \.address, name: \.name)
        probesListed = true
    }

    /// The statuses of a new list, by id: each keeps what was known of it, with its new listing and key.
    private static func relisted<Status: ListedStatus>(
        _ list: [Status.Listing], old: [String: Status], keys: inout TopicKeys, id: (Status.Listing) -> String,
        name: (Status.Listing) -> String
    ) -> [String: Status] {
        let keys = keys.update(list.map { (id($0), name($0)) })
        return Dictionary(list.map { listing in
            let key = keys[id(listing)] ?? id(listing)
            guard var status = old[id(listing)] else { return (id(listing), Status(listing, key: key)) }
            status.relist(listing, key: key)
            return (id(listing), status)
        }) { _, last in last }
    }

    /// An outlet as a command or the configuration names it: by its key, its id, the name the
    /// controller gives it, or that name made a key.
    func outlet(named name: String) -> OutletStatus? {
        outlet(matching: name) ?? outlets.values.first { $0.outlet.name == name } ?? outlet(matching: TopicKey.slug(name, fallback: name))
    }

    /// The outlet a command names: by its key, or by its id (a UUID, in any case).
    func outlet(matching target: String) -> OutletStatus? {
        if let byKey = outlets.values.first(where: { $0.key == target }) { return byKey }
        guard let uuid = target.lowercasedUUID else { return nil }
        return outlets[uuid]
    }

    var knownOutletKeys: [String] { outlets.values.map(\.key).sorted() }

    /// A configured probe: by its name, its key, its hardware address, or its name made a key.
    func probe(named name: String) -> ProbeStatus? {
        let key = TopicKey.slug(name, fallback: name)
        return probes.values.first { $0.probe.name == name || $0.key == name || $0.probe.address == name || $0.key == key }
    }
}

/// An outlet's or probe's status, made from the controller's listing and kept across lists.
protocol ListedStatus {
    associatedtype Listing
    init(_ listing: Listing, key: String)
    mutating func relist(_ listing: Listing, key: String)
}

extension OutletStatus: ListedStatus {
    init(_ listing: BellasReefOutlet, key: String) { self.init(outlet: listing, key: key) }
    mutating func relist(_ listing: BellasReefOutlet, key: String) { (outlet, self.key) = (listing, key) }
}

extension ProbeStatus: ListedStatus {
    init(_ listing: BellasReefProbe, key: String) { self.init(probe: listing, key: key) }
    mutating func relist(_ listing: BellasReefProbe, key: String) { (probe, self.key) = (listing, key) }
}

/// What the bridge knows of one service.
struct ServiceStatus: Sendable, Equatable {
    /// `false` until the service's first poll has ended: nothing is said of it before.
    var judged = false
    var available = false
    var health: BellasReefHealth?
    /// Why it is unavailable.
    var error: String?
}

/// One outlet: what the controller lists, and the last state read that the plug answered in time.
struct OutletStatus: Sendable, Equatable {
    var outlet: BellasReefOutlet
    var key: String
    var lastState: BellasReefOutletState?
    var lastSeen: Date?
    /// Whether the last state read was answered, and in time; `nil` before the first read.
    var responding: Bool?
    var error: String?

    /// Records a state read: trusted only when it came in time.
    mutating func record(_ result: Result<BellasReefOutletState, any Error>, took elapsed: Duration, at now: Date) {
        switch result {
        case .success(let state) where elapsed <= ReefConfiguration.slowPlug:
            lastState = state
            lastSeen = now
            responding = true
            error = nil
        case .success:
            responding = false
            error = "the plug took \(elapsed.secondsText) to answer"
        case .failure(let failure):
            responding = false
            error = "\(failure)"
        }
    }

    /// Whether there is anything to say of it yet: a disabled outlet's state is that it is
    /// disabled; an enabled one's is known once a read has ended or is late.
    var hasBeenRead: Bool { !outlet.enabled || responding != nil }

    /// No answer yet after `ReefConfiguration.slowPlug`: shown at once, before the read ends.
    mutating func markSlow() {
        responding = false
        error = "no answer within \(ReefConfiguration.slowPlug.secondsText)"
    }
}

/// One probe: its registration and its latest reading — never an older one when a read fails.
struct ProbeStatus: Sendable, Equatable {
    var probe: BellasReefProbe
    var key: String
    var value: Double?
    var readAt: Date?
    var error: String?

    /// Whether a read has ended: until then nothing is said of it (not an error without a reason).
    var hasBeenRead: Bool { readAt != nil || error != nil }

    mutating func record(_ result: Result<Double, any Error>, at now: Date) {
        switch result {
        case .success(let reading):
            value = reading
            readAt = now
            error = nil
        case .failure(let failure):
            value = nil
            error = "\(failure)"
        }
    }
}

extension Duration {
    /// `2.0 s`, for messages.
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds.fixedPoint(digits: 1) + " s"
    }
}
