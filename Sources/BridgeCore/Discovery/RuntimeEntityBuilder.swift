import Synchronization

/// Builds an integration's runtime entities only when what they are made of changes. An
/// integration publishes after every command and poll, and its entities (each a dictionary of
/// options) change only when its things come, go or are renamed: building them every time was
/// most of a publish at a thousand UniFi rules.
///
/// `Inputs`: exactly what the entities are made of (keys, names, kinds), not the things' state.
public final class RuntimeEntityBuilder<Inputs: Equatable & Sendable>: Sendable {
    private let last = Mutex<Inputs?>(nil)

    public init() {}

    /// The entities `build` makes of `inputs`, or `nil` when `inputs` are those of the last call
    /// (for `StatePublication.runtimeEntities` and `IntegrationContext.setRuntimeEntities`).
    public func entities(of inputs: Inputs, _ build: (Inputs) -> [DiscoveryEntity]) -> [DiscoveryEntity]? {
        let changed = last.withLock { last in
            defer { last = inputs }
            return last != inputs
        }
        return changed ? build(inputs) : nil
    }
}
