import JSONDocument
import Testing

/// `Decodable` models read from a parsed `JSONValue` as JSONDecoder read them from text.
@Suite struct JSONValueDecodingTests {
    struct Session: Decodable, Equatable {
        struct Client: Decodable, Equatable {
            let ip: String
            let port: UInt16?
        }
        let id: Int
        let valid: Bool
        let validity: Double
        let userAgent: String?
        let clients: [Client]
        let tags: [String: Int]

        enum CodingKeys: String, CodingKey {
            case id, valid, validity, clients, tags
            case userAgent = "user_agent"
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        JSONValue.decode(type, from: Array(text.utf8))
    }

    @Test func readsKeysNestedValuesAndOptionals() {
        let text = #"{"id":3.0,"valid":true,"validity":1.5,"user_agent":null,"clients":[{"ip":"::1","port":8080},{"ip":"10.0.0.2"}],"tags":{"a":1},"extra":[1]}"#
        #expect(decode(Session.self, text) == Session(
            id: 3, valid: true, validity: 1.5, userAgent: nil,
            clients: [.init(ip: "::1", port: 8080), .init(ip: "10.0.0.2", port: nil)], tags: ["a": 1]))
    }

    @Test(arguments: [
        #"{"id":3.5,"valid":true,"validity":1,"clients":[],"tags":{}}"#,  // not a whole number
        #"{"id":1e300,"valid":true,"validity":1,"clients":[],"tags":{}}"#,  // past Int
        #"{"id":"3","valid":true,"validity":1,"clients":[],"tags":{}}"#,  // a string for a number
        #"{"id":3,"valid":1,"validity":1,"clients":[],"tags":{}}"#,  // a number for a boolean
        #"{"id":3,"validity":1,"clients":[],"tags":{}}"#,  // a required key missing
        #"{"id":3,"valid":true,"validity":1,"clients":[{"ip":"x","port":70000}],"tags":{}}"#,  // past UInt16
        #"{"id":3,"valid":true,"validity":1,"clients":{},"tags":{}}"#,  // an object for an array
        #"[1,2]"#,
        #"{"id":3,"valid":true,"validity":1,"clients":[],"tags":{}"#,  // not JSON
    ])
    func refusesWhatDoesNotFit(_ text: String) {
        #expect(decode(Session.self, text) == nil)
    }

    @Test func readsTopLevelArraysAndScalars() {
        #expect(decode([Int?].self, "[1,null,3]") == [1, nil, 3])
        #expect(decode(String.self, #""x""#) == "x")
        #expect(decode(Float.self, "0.5") == 0.5)
    }
}
