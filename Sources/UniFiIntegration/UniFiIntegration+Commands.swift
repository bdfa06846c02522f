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
import UniFiAPI

extension UniFiIntegration {
    func parse(_ request: CommandRequest) throws(CommandError) -> UniFiCommand {
        try UniFiCommand.parse(request, controllers: controllers.map(\.id), presets: configuration.vouchers.presets)
    }

    /// Commands for one rule run in turn, whether addressed by key or by id; rules in parallel.
    /// A console's voucher commands run in turn, beside its rules.
    func lanes(for command: UniFiCommand) -> Set<String> {
        if case .voucher(let controller, _, _) = command { return ["voucher@\(controller)"] }
        guard case .setRule(let keyOrID, _) = command else { return [UniFiTopics.refresh] }
        guard let found = registry.withLock({ $0.find(keyOrID) }) else { return ["rule/\(keyOrID)"] }
        return [found.rule.id]
    }

    func handle(_ command: UniFiCommand, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        switch command {
        case .refresh:
            await refreshAll()
            var data: [String: JSONValue] = [:]
            for controller in controllers {
                let status = await controller.status
                data[controller.id] = ["available": .bool(status.available), "rules": .number(Double(status.rules.count))]
            }
            return .object(data)
        case .setRule(let keyOrID, let change):
            return try await set(keyOrID: keyOrID, change, context: context)
        case .voucher(let controller, let command, let codesInAnswer):
            return try await voucher(command, controller: controllers.first { $0.id == controller }!, codesInAnswer: codesInAnswer)
        }
    }

    private func set(keyOrID: String, _ command: SwitchCommand, context: IntegrationContext) async throws(CommandError) -> JSONValue {
        guard let (controllerID, key, rule) = await findReadingAgainIfUnknown(keyOrID) else {
            throw CommandError("unknown rule '\(keyOrID.prefix(80))' (managed: \(registry.withLock(\.keyList)))", code: .unknownTarget)
        }
        guard rule.isEditable else {
            throw CommandError("'\(rule.name)' is \(rule.origin) on the controller: only user-defined rules can be changed", code: .conflict)
        }
        // The command has the rule's turn, unless the rule was unknown when it came.
        return try await context.inTurn(of: [rule.id]) { () async throws(CommandError) in
            try await set(rule, key: key, on: controllerID, command, context: context)
        }
    }

    private func set(
        _ rule: UniFiRule, key: String, on controllerID: String, _ command: SwitchCommand, context: IntegrationContext
    ) async throws(CommandError) -> JSONValue {
        let controller = controllers.first { $0.id == controllerID }!
        let timerKey = ManagedRule.timerKey(controller: controllerID, id: rule.id)
        do {
            let updated = try await context.timers.change(key: timerKey, timedFor: command.duration) { pending in
                var previous = pending?["enabled"]?.boolValue
                if previous == nil { previous = try await controller.current(rule.kind, id: rule.id).enabled }
                return [
                    "controller": .string(controllerID), "kind": .string(rule.kind.rawValue), "id": .string(rule.id),
                    "name": .string(rule.name), "enabled": .bool(previous!), "set": .bool(command.enabled),
                ]
            } _: {
                try await controller.setEnabled(rule.kind, id: rule.id, command.enabled)
            }
            publishRequests.request(.parts([ChangedRule(controller: controllerID, key: key, id: rule.id)]))
            return ManagedRule(
                controller: controllerID, key: key, rule: updated, readAt: Date(), restore: context.timers.pending(key: timerKey)
            ).payload
        } catch let error as CommandError {
            throw error
        } catch {
            publishRequests.request()
            throw CommandError(controllerID, failure: error)
        }
    }

    /// A rule not known yet may be one made on the console since the last read, or the bridge has
    /// not read its consoles yet (a command the broker kept while the bridge was away arrives
    /// first thing at its start): read them now rather than refuse it.
    func findReadingAgainIfUnknown(_ keyOrID: String) async -> (controller: String, key: String, rule: UniFiRule)? {
        if let found = registry.withLock({ $0.find(keyOrID) }) { return found }
        await refreshAll()
        register(await statuses())
        return registry.withLock { $0.find(keyOrID) }
    }

    /// Carries out a timed command's promise, in the rule's turn (the line of the commands for
    /// it), unless a command for the rule came first while it waited. The rule is set to the
    /// state it had before even if someone changed it on the console meanwhile (the log says so).
    /// A rule that is gone has nothing to restore.
    /// - Returns: `false` to try again later (the console is away).
    func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        await context.restoreInTurn(timer, of: Set([timer.restore["id"]?.stringValue].compactMap { $0 })) { await restore(timer) }
    }

    private func restore(_ timer: PersistedTimer) async -> Bool {
        guard let controllerID = timer.restore["controller"]?.stringValue, let id = timer.restore["id"]?.stringValue,
              let kind = timer.restore["kind"]?.stringValue.flatMap(UniFiRuleKind.init(rawValue:)),
              let enabled = timer.restore["enabled"]?.boolValue
        else {
            logger.error("a saved UniFi timer is not understood and is dropped", metadata: ["timer": "\(timer.restore.encodedString())"])
            return true
        }
        var metadata: Logger.Metadata = ["controller": "\(controllerID)", "rule": "\(timer.restore["name"]?.stringValue ?? id)", "enabled": "\(enabled)"]
        guard let controller = controllers.first(where: { $0.id == controllerID }) else {
            logger.warning("a timed restore is for a console no longer configured; dropped", metadata: metadata)
            return true
        }
        do {
            let current = try await controller.current(kind, id: id)
            if let promised = timer.restore["set"]?.boolValue, current.enabled != promised {
                metadata["found"] = "\(current.enabled)"
                logger.notice("the rule was changed by someone else since the timed command; restoring what was promised", metadata: metadata)
            }
            _ = try await controller.setEnabled(kind, id: id, enabled)
            logger.info("timed command ended: rule restored", metadata: metadata)
            publishRequests.request()
            return true
        } catch let error as UniFiError where [.notFound, .readOnly].contains(error.code) {
            metadata["error"] = "\(error)"
            logger.warning("the rule of a timed command can no longer be restored; dropped", metadata: metadata)
            publishRequests.request()
            return true
        } catch {
            metadata["error"] = "\(error)"
            logger.warning("timed restore failed; trying again shortly", metadata: metadata)
            return false
        }
    }
}
