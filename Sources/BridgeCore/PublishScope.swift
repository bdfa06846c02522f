/// What the next publish of an integration's state must cover. A command that changed one thing
/// (a rule, a Pi-hole) asks for that thing alone; anything else (a poll, a restore) for the whole
/// state, which at a thousand UniFi rules takes milliseconds of the loop that also carries the
/// commands' answers.
public struct PublishScope<Part: Hashable & Sendable>: Sendable, Equatable {
    /// The parts asked for since the last publish; `nil` for the whole state.
    public private(set) var parts: Set<Part>?

    public static var wholeState: PublishScope { PublishScope(parts: nil) }
    /// Nothing asked since the last publish.
    public static var nothing: PublishScope { PublishScope(parts: []) }
    public static func parts(_ parts: some Sequence<Part>) -> PublishScope { PublishScope(parts: Set(parts)) }

    /// What a publish covers when asked for `self` and, before it went out, for `other`.
    public func adding(_ other: PublishScope) -> PublishScope {
        guard let parts, let more = other.parts else { return .wholeState }
        // Nothing asked since the last publish, as after most commands: no set made anew.
        if parts.isEmpty { return other }
        return PublishScope(parts: parts.union(more))
    }
}
