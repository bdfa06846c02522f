import Foundation

/// SplitMix64: a tiny seeded generator, so every failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Commands that must each be refused: bad bytes, bad shapes, bad values, bad names, for every
/// command topic of every integration. Built to be invalid, so any upstream write is a bug.
struct FuzzCorpus {
    struct Case: CustomStringConvertible {
        let topic: String
        let payload: [UInt8]
        var description: String {
            let text = String(decoding: payload.prefix(80), as: UTF8.self)
            return "\(topic) ← \(payload.count) bytes: \(text.debugDescription)"
        }
    }

    /// Real targets (so that only the payload is wrong) and made-up ones (so that the name is).
    static let piHoleTopics = ["home/pihole/pause", "home/pihole/main/pause", "home/pihole/blocking/set", "home/pihole/main/blocking/set"]
    static let domainTopics = ["home/pihole/domains/deny/add", "home/pihole/main/domains/allow/remove"]
    /// The Default group is on every Pi-hole, and no payload below may disable it (that takes `force`).
    static let groupTopics = ["home/pihole/group/default/set", "home/pihole/main/group/default/set"]
    static let askingTopics = [
        "home/pihole/recently_blocked/get", "home/pihole/main/recently_blocked/get", "home/pihole/action/gravity",
        "home/pihole/main/action/restartdns", "home/pihole/action/flush_logs",
    ]
    static let ruleTopics = ["home/unifi/rule/downtime-emma/set", "home/unifi/rule/downtime-leo/set"]
    static let outletTopics = ["home/reef/outlet/heater/set", "home/reef/outlet/return-pump/set"]
    static let voucherTopics = ["home/unifi/voucher/create", "home/unifi/controller/home/voucher/create", "home/unifi/voucher/revoke"]

    var generator: SeededGenerator

    mutating func next() -> Case {
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: return Case(topic: anyTopic(), payload: invalidUTF8())
        case 1: return Case(topic: anyTopic(), payload: Array(repeating: UInt8(ascii: "7"), count: 64 * 1024 + Int.random(in: 1...4096, using: &generator)))
        case 2: return Case(topic: anyTopic(), payload: deeplyNested())
        case 3: return Case(topic: pick(Self.piHoleTopics), payload: utf8(pick(Self.badPauses + Self.badSwitches)))
        case 4: return Case(topic: pick(Self.domainTopics), payload: utf8(pick(Self.badDomains)))
        case 5: return Case(topic: pick(Self.ruleTopics), payload: utf8(pick(Self.badRuleSets)))
        case 6: return Case(topic: pick(Self.outletTopics), payload: utf8(pick(Self.badOutletSets)))
        case 7: return Case(topic: unknownTarget(), payload: utf8(pick(["ON", "OFF", "30", "{\"enabled\":true}", "{\"state\":\"on\"}"])))
        case 8: return Case(topic: pick(Self.groupTopics), payload: utf8(pick(Self.badRuleSets + Self.badGroupSets)))
        case 9: return Case(topic: pick(Self.askingTopics), payload: utf8(pick(Self.badQuestions)))
        case 10: return Case(topic: pick(Self.voucherTopics), payload: utf8(pick(Self.badVouchers)))
        default: return Case(topic: anyTopic(), payload: utf8(randomJSONObject()))
        }
    }

    static let badPauses = ["abc", "0", "-5", "1.5", "86401", "1e300", "NaN", "{\"secs\":3}", "{\"seconds\":\"30\"}", "[30]", "\"\"", "{\"seconds\":-1}"]
    static let badSwitches = ["maybe", "{\"state\":1}", "{\"state\":null}", "\"onn\""]
    static let badDomains = ["", "has space.example", "tab\tdomain", "{\"domain\":5}", "{\"kind\":\"exact\"}", "{\"domain\":\"x.example\",\"kind\":\"fuzzy\"}", "a..b", "-lead.example"]
    static let badRuleSets = [
        "", "maybe", "{\"enabled\":\"yes\"}", "{\"enabled\":false,\"for\":-1}", "{\"enabled\":false,\"for\":0}",
        "{\"enabled\":true,\"for\":1e18}", "{\"enabled\":true,\"for\":2.5}", "{\"enabled\":true,\"until\":\"yesterday\"}",
        "{\"enabled\":true,\"for\":60,\"until\":\"2030-01-01T00:00:00Z\"}", "{\"enabled\":true,\"colour\":1}", "[true]", "{}",
    ]
    static let badGroupSets = ["OFF", "{\"enabled\":false}", "{\"enabled\":false,\"force\":\"yes\"}", "{\"enabled\":false,\"force\":1}"]
    /// `recently_blocked/get` takes `{"minutes","client","limit"}`; an action takes nothing.
    static let badQuestions = [
        "ten", "{\"minutes\":0}", "{\"minutes\":1441}", "{\"minutes\":1.5}", "{\"client\":\"192.168.1.*\"}",
        "{\"client\":\"a&upstream=cache\"}", "{\"limit\":0}", "{\"limit\":501}", "{\"since\":5}", "[10]",
    ]
    /// Outside the Integration API's limits, or not the shape: `create` takes `minutes`, `revoke` an `id` or a `code`.
    static let badVouchers = [
        "", "1440", "{}", "{\"minutes\":0}", "{\"minutes\":1000001}", "{\"minutes\":60,\"count\":1001}", "{\"minutes\":60,\"guests\":0}",
        "{\"minutes\":60,\"up_kbps\":1}", "{\"minutes\":60,\"data_mb\":1048577}", "{\"minutes\":1e300}", "{\"minutes\":60,\"note\":\"\"}",
        "{\"minutes\":60,\"name\":\"x\"}", "{\"id\":\"x\"}", "{\"code\":\"12ab\"}", "{\"code\":\"\"}", "[60]",
    ]
    static let badOutletSets = [
        "", "maybe", "{\"state\":1}", "{\"state\":\"sideways\"}", "{\"state\":\"off\",\"for\":-5}", "{\"state\":\"off\",\"for\":0}",
        "{\"state\":\"off\",\"for\":1e18}", "{\"state\":\"off\",\"until\":\"soon\"}", "{}", "[\"on\"]",
    ]

    private mutating func anyTopic() -> String {
        pick(Self.piHoleTopics + Self.domainTopics + Self.groupTopics + Self.askingTopics + Self.ruleTopics + Self.outletTopics + Self.voucherTopics)
    }

    /// A target that is not there: unicode, very long, or odd, in a real command's place.
    private mutating func unknownTarget() -> String {
        // No U+0000: a broker refuses such a topic outright (it is not the bridge's to answer).
        let names = ["ümlaut-ß-日本", String(repeating: "x", count: 4000), "..", "DOWNTIME-EMMA", " ", "%2F"]
        let name = pick(names)
        return pick([
            "home/pihole/\(name)/pause", "home/pihole/group/\(name)/set", "home/pihole/main/action/\(name)", "home/unifi/rule/\(name)/set",
            "home/reef/outlet/\(name)/set",
        ])
    }

    private mutating func invalidUTF8() -> [UInt8] {
        var bytes = (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.insert(0xC3, at: bytes.count / 2)
        bytes.insert(0xFF, at: 0)  // never valid in UTF-8
        return bytes
    }

    private mutating func deeplyNested() -> [UInt8] {
        let depth = Int.random(in: 1000...30000, using: &generator)
        let (open, close) = Bool.random(using: &generator) ? ("[", "]") : ("{\"a\":", "}")
        return Array((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8).prefix(64 * 1024).map { $0 }
    }

    private mutating func randomJSONObject() -> String {
        let keys = ["seconds", "enabled", "state", "for", "until", "domain", "kind", "x", "ünï", ""]
        // No `true`: `{"enabled":true}` is a valid rule command.
        let values = ["null", "false, \"x\": 0", "-1", "1e308", "\"\"", "[]", "{}", "\"\u{1F41F}\""]
        let members = (0..<Int.random(in: 1...4, using: &generator)).map { _ in "\"\(pick(keys))\":\(pick(values))" }
        return "{\(members.joined(separator: ","))}"
    }

    private mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &generator)! }
    private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
}
