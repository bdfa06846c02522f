import Synchronization

/// How polls, commands and restores ask an integration's one publishing task
/// (`IntegrationContext.publishWhenAsked`) to publish, and for what.
public final class PublishRequests<Part: Hashable & Sendable>: Sendable {
    private let scope = Mutex(PublishScope<Part>.wholeState)
    let wakeup = Wakeup()

    public init() {}

    /// Asks for the whole state, or for some parts of it.
    public func request(_ scope: PublishScope<Part> = .wholeState) {
        self.scope.withLock { $0 = $0.adding(scope) }
        wakeup.signal()
    }

    /// The parts asked for since the last take, or `nil` for the whole state: asked for, or
    /// nothing asked (the hourly wake-up). Taken before the state is read: whatever changes after
    /// it asks again.
    func take() -> Set<Part>? {
        scope.withLock { scope in
            defer { scope = .nothing }
            return scope.parts?.isEmpty == false ? scope.parts : nil
        }
    }
}
