import BridgeCore

/// The answer to `search`: each Pi-hole's verdict, and the merged one (blocked where any
/// Pi-hole that answered blocks it: a client asks either). A Pi-hole that did not answer is
/// named in `errors`.
struct SearchAnswer: Sendable {
    let request: SearchRequest
    let verdicts: [(pihole: String, verdict: SearchVerdict)]
    let errors: [String: String]

    var blockedOn: [String] {
        verdicts.filter { $0.verdict.decision?.blocked == true }.map(\.pihole).sorted()
    }

    var payload: JSONValue {
        [
            "domain": .string(request.term),
            "partial": .bool(request.partial),
            "client": request.client.map(JSONValue.string) ?? .null,
            "blocked": request.partial ? .null : .bool(!blockedOn.isEmpty),
            "blocked_on": .array(blockedOn.map(JSONValue.string)),
            "piholes": .object(Dictionary(uniqueKeysWithValues: verdicts.map { ($0.pihole, $0.verdict.payload) })),
            "errors": .object(errors.mapValues(JSONValue.string)),
        ]
    }
}
