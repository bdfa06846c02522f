#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON bodies as a real FTL v6 sends them. Decoding is lenient where real devices
/// differ from the OpenAPI documents.
enum PiHoleWire {
    struct LoginRequest: Encodable {
        let password: String
    }

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

    struct BlockingRequest: Encodable {
        let blocking: Bool
        let timer: Int?

        enum CodingKeys: String, CodingKey { case blocking, timer }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(blocking, forKey: .blocking)
            // FTL treats an explicit null like a missing timer (permanent).
            if let timer { try c.encode(timer, forKey: .timer) } else { try c.encodeNil(forKey: .timer) }
        }
    }

    struct BlockingResponse: Decodable {
        let blocking: PiHoleBlocking
        let timer: Double?

        enum CodingKeys: String, CodingKey { case blocking, timer }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            // Real FTL: a string; some docs/older builds: a boolean.
            if let text = try? c.decode(String.self, forKey: .blocking) {
                blocking = PiHoleBlocking(rawValue: text.lowercased()) ?? .unknown
            } else if let flag = try? c.decode(Bool.self, forKey: .blocking) {
                blocking = flag ? .enabled : .disabled
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .blocking, in: c, debugDescription: "missing or invalid 'blocking'")
            }
            timer = try? c.decodeIfPresent(Double.self, forKey: .timer)
        }
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

    struct DomainRequest: Encodable {
        let domain: String
        let comment: String?
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
