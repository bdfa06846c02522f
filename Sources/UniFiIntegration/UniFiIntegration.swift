import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization
import UniFiAPI

/// UniFi Network on MQTT: a child's "downtime" rules (ACL rules and firewall policies) on and
/// off, timed, through the Integration API.
final class UniFiIntegration: Integration, HomeAssistantEntities, ConfigurationChecks, CredentialTopics {
    let name = UniFiTopics.name
    let commandFilters = UniFiTopics.commandFilters
    let credentialTopics = UniFiTopics.credentialFilters
    let hasRuntimeEntities = true
    let configuration: UniFiConfiguration
    let controllers: [UniFiController]
    let registry = Mutex(RuleRegistry())
    /// The voucher a Home Assistant button made last, with its code (see `VoucherConfiguration`).
    let latestVoucher = Mutex<LatestVoucher?>(nil)
    /// Asks the one publishing task to publish what changed: polls, commands and restores all
    /// end here, so that state goes out in order. A command that set a rule asks for that rule.
    let publishRequests = PublishRequests<ChangedRule>()
    /// The rule entities, built and set only when the rules they are made of change.
    private let runtimeEntities = RuntimeEntityBuilder<[UniFiDiscovery.RuleThing]>()
    private let pollNow = Wakeup()
    let logger: Logger
    let clock: any BridgeClock

    init(configuration: UniFiConfiguration, environment: IntegrationEnvironment) {
        self.configuration = configuration
        logger = environment.logger
        clock = environment.clock
        controllers = configuration.controllers.map {
            UniFiController(
                configuration: $0, logger: environment.logger,
                metrics: environment.metrics.upstream(integration: UniFiTopics.name, instance: $0.id), clock: environment.clock)
        }
    }

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        let discovery = UniFiDiscovery(topics: topics)
        return discovery.controllerEntities(controllers.map(\.id)) + discovery.voucherEntities(controllers.map(\.id), configuration.vouchers)
    }

    func run(context: IntegrationContext) async {
        // A code retained before the option was turned off must not stay behind.
        if !configuration.vouchers.retainLatestCode { await context.clearState(UniFiTopics.latestVoucher) }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.poll() }
            group.addTask { await self.publishWhenAsked(context) }
            group.addTask { await context.timers.run { timer in await self.carryOutRestore(timer, context: context) } }
        }
    }

    func checkConfigurationWithUpstream() async throws(ConfigError) {
        for controller in controllers { try await controller.checkSite() }
    }

    func shutdown() async {
        await withDiscardingTaskGroup { group in
            for controller in controllers { group.addTask { await controller.shutdown() } }
        }
    }

    private func poll() async {
        var pace = PollPace(interval: configuration.pollInterval)
        while !Task.isCancelled {
            let started = clock.now
            await refreshAll()
            let everyConsoleRead = await statuses().allSatisfy(\.status.available)
            await pollNow.wait(until: started + pace.next(afterSuccess: everyConsoleRead), on: clock)
        }
    }

    func refreshAll() async {
        await withDiscardingTaskGroup { group in
            for controller in controllers { group.addTask { await controller.refresh() } }
        }
        publishRequests.request()
    }

    private func publishWhenAsked(_ context: IntegrationContext) async {
        let discovery = UniFiDiscovery(topics: context.topics)
        await context.publishWhenAsked(publishRequests) { rules in
            let statuses = await statuses()
            let available = statuses.contains(where: \.status.available)
            if let rules {
                return .part(controllerMessages(statuses) + ruleMessages(rules, statuses, context: context), upstreamAnswered: available)
            }
            let managed = updateRegistry(statuses, context: context)
            // Until every console has been read once, the rules of one that was down at start
            // are unknown: reporting entities then would remove theirs from Home Assistant.
            return StatePublication(
                messages: controllerMessages(statuses) + ruleMessages(managed) + voucherMessages(statuses), upstreamAnswered: available,
                runtimeEntities: statuses.allSatisfy(\.status.everRead)
                    ? runtimeEntities.entities(of: managed.map(UniFiDiscovery.RuleThing.init), discovery.ruleEntities) : nil)
        }
    }

    func statuses() async -> [(id: String, status: UniFiController.ControllerStatus)] {
        var statuses: [(id: String, status: UniFiController.ControllerStatus)] = []
        for controller in controllers { statuses.append((controller.id, await controller.status)) }
        return statuses
    }

    /// The rules read, as the registry commands find them in.
    func register(_ statuses: [(id: String, status: UniFiController.ControllerStatus)]) {
        let read = statuses.flatMap { id, status in status.rules.map { (controller: id, rule: $0) } }
        registry.withLock { $0.update(read) }
    }

    private func updateRegistry(
        _ statuses: [(id: String, status: UniFiController.ControllerStatus)], context: IntegrationContext
    ) -> [ManagedRule] {
        register(statuses)
        let rules = registry.withLock(\.rules)
        let readAt = statuses.reduce(into: [String: Date]()) { $0.merge($1.status.readAt) { first, _ in first } }
        let restores = pendingRestores(context)
        return rules.map { controller, key, rule in
            ManagedRule(
                controller: controller, key: key, rule: rule, readAt: readAt[rule.id],
                restore: restores[ManagedRule.timerKey(controller: controller, id: rule.id)])
        }
    }

    /// The timed commands' restores still to come, by timer key. One carried out is taken off the
    /// list just after the publish that follows it: hide it already.
    private func pendingRestores(_ context: IntegrationContext) -> [String: PersistedTimer] {
        let now = context.clock.wallNow
        return Dictionary(context.timers.pending.filter { $0.dueAt > now }.map { ($0.key, $0) }) { first, _ in first }
    }

    private func controllerMessages(_ statuses: [(id: String, status: UniFiController.ControllerStatus)]) -> [(topic: String, message: StateMessage)] {
        var messages: [(topic: String, message: StateMessage)] = []
        for (id, status) in statuses {
            messages.append((UniFiTopics.controller(id), .json([
                "id": .string(id), "available": .bool(status.available), "error": status.error.map(JSONValue.string) ?? .null,
                "application_version": status.applicationVersion.map(JSONValue.string) ?? .null,
                "site": status.site.map(JSONValue.string) ?? .null, "rules": .number(Double(status.rules.count)),
            ])))
            messages.append((UniFiTopics.controllerAvailability(id), .availability(status.available)))
        }
        messages.append((UniFiTopics.availability, .availability(statuses.contains(where: \.status.available))))
        return messages
    }

    /// Every managed rule, and their index: a deleted or renamed rule's old topic is cleared by
    /// `changes(replacingAll:)`.
    private func ruleMessages(_ managed: [ManagedRule]) -> [(topic: String, message: StateMessage)] {
        [(UniFiTopics.rules, .json(.object(Dictionary(uniqueKeysWithValues: managed.map { ($0.key, $0.indexEntry) }))))]
            + managed.map { (UniFiTopics.rule($0.key), .json($0.payload)) }
    }

    /// The rules commands set, as their consoles last answered (a rule a poll has found gone
    /// since is left to the whole state that poll asked for).
    private func ruleMessages(
        _ rules: Set<ChangedRule>, _ statuses: [(id: String, status: UniFiController.ControllerStatus)], context: IntegrationContext
    ) -> [(topic: String, message: StateMessage)] {
        let restores = pendingRestores(context)
        return rules.sorted { $0.key < $1.key }.compactMap { set in
            guard let status = statuses.first(where: { $0.id == set.controller })?.status,
                  let rule = status.rules.first(where: { $0.id == set.id }) else { return nil }
            let managed = ManagedRule(
                controller: set.controller, key: set.key, rule: rule, readAt: status.readAt[rule.id],
                restore: restores[ManagedRule.timerKey(controller: set.controller, id: rule.id)])
            return (UniFiTopics.rule(set.key), .json(managed.payload))
        }
    }
}

extension UniFiIntegration: EverydayCommands {
    var everydayCommands: [String] { UniFiTopics.everydayCommands }
}
