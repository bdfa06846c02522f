/// How long after each of a run of one-at-a-time commands something that belongs to it was seen
/// on its way: the upstream call a simulator received, the state the bridge published.
public enum StageTiming {
    /// The delay from `sent[i]` to the first of `events` that `belongs` to command `i`, for each
    /// command that has one. An event can belong to command `i` only when it came at or after
    /// `sent[i]` and before `sent[i + window]`: with `window` 1 it came before the next command
    /// was sent (an upstream call, made before the answer); with 2 it may come after the answer
    /// (a state published on its own), but not after the command after next, which alone may show
    /// the same again. `sent` is in order; `events` in any order.
    public static func delays<Event>(
        sent: [ContinuousClock.Instant], events: [(at: ContinuousClock.Instant, event: Event)], window: Int,
        belongs: (_ command: Int, Event) -> Bool
    ) -> [Duration] {
        let events = events.sorted { $0.at < $1.at }
        var delays: [Duration] = []
        var first = 0
        for (command, start) in sent.enumerated() {
            while first < events.count, events[first].at < start { first += 1 }
            let end = command + window < sent.count ? sent[command + window] : nil
            for event in events[first...] {
                if let end, event.at >= end { break }
                if belongs(command, event.event) {
                    delays.append(event.at - start)
                    break
                }
            }
        }
        return delays
    }
}
