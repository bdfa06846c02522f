#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Control and observation of the query log, gravity, groups, sessions and actions.
/// Everything goes through the simulator's one lock.
extension PiHoleSimulator {
    // MARK: - Query log and summary

    /// Adds queries to the log, as if the Pi-hole had answered them (the oldest are dropped past 100,000).
    public func recordQueries(_ queries: [SimulatedQuery]) {
        core.withLockedValue { $0.queryLog.record(queries) }
    }

    /// Queries in the log.
    public var queryCount: Int { core.withLockedValue { $0.queryLog.entries.count } }

    /// The blocklist's size and the time of its last update (`nil`: unknown, answered as `0`).
    public func setGravity(domains: Int, lastUpdate: Date?) {
        core.withLockedValue {
            $0.gravity.domains = domains
            $0.gravity.lastUpdate = lastUpdate
        }
    }

    // MARK: - Gravity runs

    /// How the next `POST /api/action/gravity` goes: its output is streamed over `duration`,
    /// with `[✗]` lines when `fails`.
    public func setGravityRun(duration: Duration, fails: Bool = false) {
        core.withLockedValue {
            $0.gravity.runDuration = duration
            $0.gravity.runFails = fails
        }
    }

    /// Gravity runs started.
    public var gravityRuns: Int { core.withLockedValue { $0.gravity.runsStarted } }
    /// Gravity runs whose output has been written to the end.
    public var gravityRunsFinished: Int { core.withLockedValue { $0.gravity.runsFinished } }
    public var isGravityRunning: Bool { core.withLockedValue { $0.gravity.isRunning } }
    public var gravityLastUpdate: Date? { core.withLockedValue { $0.gravity.lastUpdate } }

    // MARK: - Actions

    /// `webserver.api.allow_destructive`: `false` refuses restartdns and the log flush with 403.
    public func setAllowDestructive(_ allowed: Bool) {
        core.withLockedValue { $0.allowDestructive = allowed }
    }

    /// Successful `POST /api/action/restartdns` calls.
    public var dnsRestarts: Int { core.withLockedValue { $0.dnsRestarts } }
    /// Successful `POST /api/action/flush/logs` calls.
    public var logFlushes: Int { core.withLockedValue { $0.logFlushes } }

    // MARK: - Groups

    /// Adds a group behind the bridge's back; `false` when the name is taken.
    @discardableResult
    public func addGroup(name: String, comment: String? = nil, enabled: Bool = true) -> Bool {
        let now = clock.now()
        return core.withLockedValue { $0.groups.add(name: name, comment: comment, enabled: enabled, now: now) }
    }

    @discardableResult
    public func removeGroup(name: String) -> Bool {
        core.withLockedValue { $0.groups.remove(name) }
    }

    /// Enables or disables a group behind the bridge's back; `false` when there is no such group.
    @discardableResult
    public func setGroupEnabled(name: String, enabled: Bool) -> Bool {
        let now = clock.now()
        return core.withLockedValue { $0.groups.update(name, now: now) { $0.enabled = enabled } }
    }

    public func group(named name: String) -> SimulatedGroup? {
        core.withLockedValue { $0.groups.named(name) }
    }

    public var groups: [SimulatedGroup] { core.withLockedValue { $0.groups.all } }
    /// `PUT /api/groups/{name}` requests with a JSON body.
    public var groupPutCount: Int { core.withLockedValue { $0.groups.putCount } }
    /// Groups `POST /api/groups` created.
    public var groupsCreatedByPost: Int { core.withLockedValue { $0.groups.createdByPost } }

    // MARK: - Clients

    /// Adds a configured client behind the bridge's back, in the groups named (which must exist);
    /// `false` when it exists or a group does not.
    @discardableResult
    public func addClient(_ client: String, groups: [String] = ["Default"], comment: String? = nil) -> Bool {
        let now = clock.now()
        return core.withLockedValue { state in
            let ids = groups.compactMap { state.groups.named($0)?.id }
            guard ids.count == groups.count else { return false }
            return state.clients.add(client, comment: comment, groups: ids, now: now)
        }
    }

    @discardableResult
    public func removeClient(_ client: String) -> Bool {
        core.withLockedValue { $0.clients.remove(client) }
    }

    /// The client's group names, in the order of its group ids; `nil` when it is not configured.
    public func clientGroups(_ client: String) -> [String]? {
        core.withLockedValue { state in
            state.clients.named(client).map { entry in entry.groups.sorted().compactMap { id in state.groups.all.first { $0.id == id }?.name } }
        }
    }

    public func client(_ client: String) -> SimulatedClient? {
        core.withLockedValue { $0.clients.named(client) }
    }

    /// `PUT /api/clients/{client}` and `POST /api/clients` requests that were carried out.
    public var clientWrites: Int { core.withLockedValue { $0.clients.writes } }

    // MARK: - Sessions, messages, versions

    /// Opens sessions as other clients (browsers) would, taking seats counted against
    /// `maxSessions`. Returns how many could be opened.
    @discardableResult
    public func addForeignSessions(count: Int) -> Int {
        let now = clock.now()
        return core.withLockedValue { state in
            (0..<count).filter { index in
                state.openSession(
                    now: now, isApp: false, remoteAddress: "192.168.1.\(100 + index % 100)",
                    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") != nil
            }.count
        }
    }

    /// What `/api/info/messages/count` answers.
    public func setMessageCount(_ count: Int) {
        core.withLockedValue { $0.messageCount = count }
    }

    /// Every component's `remote.version` (`nil`: the installed one, i.e. up to date).
    public func setLatestVersion(_ version: String?) {
        core.withLockedValue { $0.latestVersion = version }
    }
}
