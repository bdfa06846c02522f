import BridgeCore
import PiHoleAPI

extension PiHoleIntegration {
    /// "Why is this blocked?" on each targeted Pi-hole, merged.
    func search(_ request: SearchRequest, _ target: PiHoleCommand.Target) async throws(CommandError) -> JSONValue {
        let (verdicts, errors) = try await askEach(target) { try await $0.search(request) }
        return SearchAnswer(request: request, verdicts: verdicts.map { (pihole: $0.0, verdict: $0.1) }, errors: errors).payload
    }

    /// Asks each targeted Pi-hole at once, for a read merged over them: the answers in
    /// configuration order, and each failure by Pi-hole. Fails only when none answers.
    func askEach<T: Sendable>(
        _ target: PiHoleCommand.Target,
        // Untyped `throws`, as in `forEach`: a typed-throws async closure in a task group was miscompiled.
        _ read: @escaping @Sendable (PiHoleInstance) async throws -> T
    ) async throws(CommandError) -> (answers: [(String, T)], errors: [String: String]) {
        let asked = instances.filter { target == .all || target == .instance($0.id) }
        let results = await withTaskGroup(of: (String, Result<T, CommandError>).self) { group in
            for instance in asked {
                group.addTask {
                    do {
                        return (instance.id, .success(try await read(instance)))
                    } catch let error as CommandError {
                        return (instance.id, .failure(error))
                    } catch {
                        return (instance.id, .failure(CommandError(instance.id, failure: error)))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        var answers: [(String, T)] = []
        var errors: [String: CommandError] = [:]
        for instance in asked {
            switch results[instance.id] {
            case .success(let value)?: answers.append((instance.id, value))
            case .failure(let error)?: errors[instance.id] = error
            case nil: break
            }
        }
        guard errors.count < asked.count else { throw CommandError(combining: errors.values.sorted { $0.message < $1.message }) }
        return (answers, errors.mapValues(\.message))
    }
}
