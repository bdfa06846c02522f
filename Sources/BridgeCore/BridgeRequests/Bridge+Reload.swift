import Logging

extension Bridge {
    /// Returns once the bridge serves (at once if it does), after `limit`, or when the task is
    /// cancelled: a SIGHUP sent while the bridge starts reloads once it has started, rather than
    /// being refused as `not_ready` (a start whose broker is away, on a busy machine, takes seconds).
    public func waitUntilServing(atMost limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !isServing.load(ordering: .acquiring), !Task.isCancelled, ContinuousClock.now < deadline {
            await startedServing.wait(until: deadline, on: .system)
        }
    }

    /// `bridge/request/reload` and SIGHUP: reads the configuration again, through the same loader
    /// and checks as the start, and applies what changed. An integration whose section was added,
    /// removed or changed is stopped as at a shutdown (its upstream sessions logged out) and its
    /// successor started; a removed one's retained state and Home Assistant entities are cleared.
    /// The others run on untouched. `bridge.log_level` and `log_format` apply at once (a level
    /// set by `log_level` gives way to the file's); what only a restart changes is listed in
    /// `not_applied`. A configuration with a mistake is refused, naming its key, and the running
    /// one is kept.
    public func reload() async -> Result<JSONValue, CommandError> {
        let isFirst = isReloading.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard isFirst else {
            logger.warning("configuration not reloaded: a reload is already running")
            return .failure(CommandError("a reload is already running", code: .busy))
        }
        defer { isReloading.withLock { $0 = false } }
        guard isServing.load(ordering: .acquiring) else {
            logger.warning("configuration not reloaded: the bridge is starting or shutting down")
            return .failure(CommandError("not reloaded: the bridge is starting or shutting down", code: .notReady))
        }
        guard let source else { return .failure(CommandError("this bridge was started without a configuration to read again", code: .conflict)) }

        let loaded: ConfigurationSource.Loaded
        do throws(ConfigError) {
            loaded = try source.load()
        } catch {
            return refuse(error)
        }
        let runs = running.all
        let plan = ReloadPlan(
            from: current.withLock { $0.tree }, to: loaded.configuration.tree, running: runs.map(\.name),
            wanted: loaded.integrations.map(\.name), started: configuration.tree)
        let starting = loaded.integrations.filter { plan.added.contains($0.name) || plan.changed.contains($0.name) }
        do throws(ConfigError) {
            for integration in starting { try await (integration as? any ConfigurationChecks)?.checkConfigurationWithUpstream() }
        } catch {
            // What the checks opened upstream is released: these never run.
            await withDiscardingTaskGroup { group in
                for integration in starting { group.addTask { await integration.shutdown() } }
            }
            return refuse(error)
        }

        current.withLock { $0 = loaded.configuration }
        logControl.apply(loaded.configuration.bridge)
        let successors = Dictionary(loaded.integrations.map { ($0.name, $0) }) { first, _ in first }
        await withDiscardingTaskGroup { group in
            for run in runs where plan.removed.contains(run.name) { group.addTask { await self.remove(run) } }
            for run in runs where plan.changed.contains(run.name) {
                group.addTask { await self.replace(run, with: successors[run.name]!) }
            }
            for name in plan.added { group.addTask { await self.add(successors[name]!) } }
        }
        publishRetained(topics.info, infoPayload.encoded())
        let names = { (names: [String]) in JSONValue.array(names.map(JSONValue.string)) }
        events.publish("configuration_reloaded", [
            "added": names(plan.added), "removed": names(plan.removed), "changed": names(plan.changed),
            "not_applied": names(plan.notApplied),
        ])
        logger.notice("configuration reloaded", metadata: [
            "added": "\(plan.added)", "removed": "\(plan.removed)", "changed": "\(plan.changed)", "not_applied": "\(plan.notApplied)",
        ])
        return .success(plan.payload)
    }

    private func refuse(_ error: ConfigError) -> Result<JSONValue, CommandError> {
        logger.error("configuration not reloaded: the running one is kept", metadata: ["error": "\(error)"])
        return .failure(CommandError("configuration not reloaded, the running one is kept: \(error)", code: .conflict))
    }

    private func add(_ integration: any Integration) async {
        let run = makeRun(integration)
        running.insert(run)
        await subscribe(run)
        await discovery?.setDeclaredEntities(integration.declaredEntities(topics: run.context.topics), of: run.name)
        await launch(run)
    }

    /// The section changed: commands go to the successor from now on (and wait there), the
    /// predecessor stops and logs out, then the successor starts, clearing once it has published
    /// its whole state what the predecessor published and it does not. Its Home Assistant
    /// entities stay as they are unless the successor no longer has them.
    private func replace(_ run: IntegrationRun, with integration: any Integration) async {
        let successor = makeRun(integration)
        running.insert(successor)
        await retire(run)
        events.availability.forget(integration: run.name)
        successor.context.retained.inherit(from: run.context.retained)
        await discovery?.setDeclaredEntities(integration.declaredEntities(topics: successor.context.topics), of: run.name)
        await launch(successor)
    }

    /// The section went away: no more commands, the integration stops and logs out, and what it
    /// published (state, availability, Home Assistant entities) is cleared.
    private func remove(_ run: IntegrationRun) async {
        for filter in run.queue.filters { try? await client.unsubscribe(configuration.bridge.commandSubscription(filter)) }
        running.remove(run)
        await retire(run)
        events.availability.forget(integration: run.name)
        health.forget(integration: run.name)
        metrics.upstreamHealth.forget(integration: run.name)
        await discovery?.removeEntities(of: run.name)
        for topic in run.context.retained.all.sorted() { await run.context.clearState(topic) }
    }

    /// As at a shutdown: polls end, the commands it holds are answered, then it logs out (bounded).
    private func retire(_ run: IntegrationRun) async {
        await run.stopAndWait(refusing: CommandError("not carried out: \(run.name) was reloaded while the command waited; send it again", code: .notReady))
        let integration = run.integration
        if case .expired = await withTimeLimit(.seconds(3), { await integration.shutdown() }) {
            logger.warning("integration did not finish shutting down in 3 s", metadata: ["integration": "\(run.name)"])
        }
    }

    /// Starts `run`; once the bridge is shutting down it is not started, but the commands that
    /// were routed to it meanwhile are still answered.
    private func launch(_ run: IntegrationRun) async {
        guard !running.launch(run) else { return }
        run.stop()
        await run.run()
    }

    private func subscribe(_ run: IntegrationRun) async {
        for filter in run.queue.filters {
            do {
                try await subscribeCommands(filter)
            } catch {
                logger.warning("command subscription failed", metadata: ["filter": "\(filter)", "error": "\(error)"])
            }
        }
    }
}
