import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON bodies as a real FTL v6 sends them. Decoding is lenient where real devices
/// differ from the OpenAPI documents.
enum PiHoleWire {
    struct SessionBody: Decodable {
        let valid: Bool?
        let sid: String?
        let validity: Double?
        let message: String?
    }

    struct AuthResponse: Decodable {
        let session: SessionBody?
    }

    struct ErrorBody: Decodable {
        let key: String?
        let message: String?
        let hint: String?

        enum CodingKeys: String, CodingKey { case key, message, hint }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            key = try? c.decodeIfPresent(String.self, forKey: .key)
            message = try? c.decodeIfPresent(String.self, forKey: .message)
            hint = try? c.decodeIfPresent(String.self, forKey: .hint)
        }
    }

    struct ErrorEnvelope: Decodable {
        let error: ErrorBody?
        let session: SessionBody?
    }

    /// `{"blocking":false,"timer":30}`. Read and written by hand, not through Codable: it is the
    /// one exchange of every pause and every poll.
    static func blockingRequest(_ enabled: Bool, timer: Int?) -> JSONValue {
        // FTL treats an explicit null like a missing timer (permanent).
        ["blocking": .bool(enabled), "timer": timer.map { .number(Double($0)) } ?? .null]
    }

    /// Ten years: any real pause is shorter, and a time that far ahead is still a date and a duration.
    static let longestTimer: Double = 10 * 365 * 86_400

    /// `blocking` is a string on a real FTL (`enabled`, `disabled`, …; any other is `.unknown`),
    /// a boolean in some docs and older builds; `timer` a number of seconds, or anything else (a
    /// negative one, or one past `longestTimer`) for none. Nil when `body` is no object with such
    /// a `blocking`.
    static func blockingStatus(_ body: JSONValue) -> PiHoleBlockingStatus? {
        let blocking: PiHoleBlocking
        switch body["blocking"] {
        case .string(let text)?: blocking = PiHoleBlocking(rawValue: text.lowercased()) ?? .unknown
        case .bool(let flag)?: blocking = flag ? .enabled : .disabled
        default: return nil
        }
        let timer: Double? = if case .number(let seconds)? = body["timer"], (0...longestTimer).contains(seconds) { seconds } else { nil }
        return PiHoleBlockingStatus(blocking: blocking, timer: timer)
    }

    struct HostResponse: Decodable {
        struct Host: Decodable {
            struct Uname: Decodable { let nodename: String }
            let uname: Uname
        }
        let host: Host
    }

    /// Every version, branch and hash is `nullable` in info.yaml: FTL installed alone, a custom
    /// branch or a first start before the version check leaves core's and web's unknown.
    struct VersionResponse: Decodable {
        struct Version: Decodable {
            struct Component: Decodable {
                struct Release: Decodable {
                    let version: String?
                }
                let local: Release?
                let remote: Release?
            }
            let core: Component?
            let web: Component?
            let ftl: Component?
        }
        let version: Version
    }

    /// `POST /api/domains/{list}/{kind}`: the comment only when there is one.
    static func domainRequest(domain: String, comment: String?) -> Data {
        var fields: [String: JSONValue] = ["domain": .string(domain)]
        if let comment { fields["comment"] = .string(comment) }
        return Data(JSONValue.object(fields).encoded())
    }

    struct ProcessedResponse: Decodable {
        struct Item: Decodable {
            let item: String?
            let error: String?
        }
        struct Processed: Decodable {
            let success: [Item]?
            let errors: [Item]?
        }
        let processed: Processed?
    }
}
