/// How large an upstream's answer may be: what its real answers need and no more, so that a broken
/// or hostile one costs the bridge little (it is refused as `bodyTooLarge` once past the limit).
public enum AnswerSize {
    /// An answer about one thing: a login, a state, a rule, an error. The largest real ones (a
    /// firewall policy with long address lists) are a few kilobytes.
    public static let single = 256 << 10
    /// A list: a page of 200 UniFi rules, 1,000 Pi-hole queries, every group or session, every
    /// outlet or probe.
    public static let list = 4 << 20
}
