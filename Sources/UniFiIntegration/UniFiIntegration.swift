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
final class UniFiIntegration: Integration {
    let name = UniFiTopics.name
    let commandFilters = UniFiTopics.commandFilters
    let hasRuntimeEntities = true
    let configuration: UniFiConfiguration
    let controllers: [UniFiController]
    let registry = Mutex(RuleRegistry())
    /// Asks the one publishing task to publish what changed: polls, commands and restores all
    /// end here, so that state goes out in order.
    let publishRequest = Wakeup()
    /// The rule entities, built and set only when the rules they are made of change.
    private let runtimeEntities = RuntimeEntityBuilder<[UniFiDiscovery.RuleThing]>()
    private let pollNow = Wakeup()
    let logger: Logger

    init(configuration: UniFiConfiguration, environment: IntegrationEnvironment) {
        self.configuration = configuration
        logger = environment.logger
        controllers = configuration.controllers.map {
            UniFiController(
                configuration: $0, logger: environment.logger,
                metrics: environment.metrics.upstream(integration: UniFiTopics.name, instance: $0.id))
        }
    }

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        UniFiDiscovery(topics: topics).controllerEntities(controllers.map(\.id))
    }

    func run(context: IntegrationContext) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.poll() }
            group.addTask { await self.publishWhenAsked(context) }
            group.addTask { await context.timers.run { timer in await self.restore(timer, context: context) } }
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
        while !Task.isCancelled {
            await refreshAll()
            await pollNow.wait(atMost: configuration.pollInterval)
        }
    }

    func refreshAll() async {
        await withDiscardingTaskGroup { group in
            for controller in controllers { group.addTask { await controller.refresh() } }
        }
        publishRequest.signal()
    }

    private func publishWhenAsked(_ context: IntegrationContext) async {
        let discovery = UniFiDiscovery(topics: context.topics)
        await context.publishWhenAsked(publishRequest) {
            let statuses = await statuses()
            let managed = updateRegistry(statuses, context: context)
            // Until every console has been read once, the rules of one that was down at start
            // are unknown: reporting entities then would remove theirs from Home Assistant.
            return StatePublication(
                messages: messages(statuses, managed), upstreamAnswered: statuses.contains(where: \.status.available),
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
        return rules.map { controller, key, rule in
            ManagedRule(
                controller: controller, key: key, rule: rule, readAt: readAt[rule.id],
                // A restore carried out is taken off the list just after this publish: hide it already.
                restore: context.timers.pending(key: ManagedRule.timerKey(controller: controller, id: rule.id)).flatMap { $0.dueAt > Date() ? $0 : nil })
        }
    }

    private func messages(
        _ statuses: [(id: String, status: UniFiController.ControllerStatus)], _ managed: [ManagedRule]
    ) -> [(topic: String, message: StateMessage)] {
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
        messages.append((UniFiTopics.rules, .json(.object(Dictionary(uniqueKeysWithValues: managed.map { ($0.key, $0.indexEntry) })))))
        // The whole state: a deleted or renamed rule's old topic is cleared by `changes(replacingAll:)`.
        messages += managed.map { (UniFiTopics.rule($0.key), .json($0.payload)) }
        return messages
    }
}
