#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import NIOHTTP1
import PlainText
import UpstreamHTTP

/// A configured client of a Pi-hole: an IP, MAC, host name or CIDR range, in groups by id.
public struct PiHoleClientEntry: Sendable, Equatable {
    /// As FTL stores it: `192.168.1.23`, `12:34:56:78:9A:BC`, `emma-tablet`, `10.0.0.0/24`.
    public var client: String
    public var comment: String?
    /// Group ids; 0 is the Default group.
    public var groups: [Int]
    /// The host name FTL knows for an IP client.
    public var name: String?

    public init(client: String, comment: String?, groups: [Int], name: String?) {
        self.client = client
        self.comment = comment
        self.groups = groups
        self.name = name
    }
}

extension PiHoleClient {
    /// `GET /api/clients`: every configured client.
    public func clients() async throws -> [PiHoleClientEntry] {
        let response = try await authenticated(.GET, "/api/clients", maxBodySize: AnswerSize.list)
        return try decodeSuccess(PiHoleWire.ClientsResponse.self, response, what: "client list").clients.map(\.entry)
    }

    /// `GET /api/clients/{client}`: the configured client, or `nil` (FTL answers an empty list).
    public func clientEntry(_ client: String) async throws -> PiHoleClientEntry? {
        let response = try await authenticated(.GET, "/api/clients/\(client.percentEncodedPathSegment)")
        return try decodeSuccess(PiHoleWire.ClientsResponse.self, response, what: "client").clients.first { $0.client == client }?.entry
    }

    /// `DELETE /api/clients/{client}`: the client is no longer configured (a missing one is no error).
    public func deleteClient(_ client: String) async throws {
        let response = try await authenticated(.DELETE, "/api/clients/\(client.percentEncodedPathSegment)")
        guard response.isSuccess || response.status == 404 else { throw mapFailure(response) }
    }

    /// Puts the configured client in exactly `groupIDs`, keeping its comment.
    ///
    /// `GET /api/clients/{client}` for the current object, then `PUT` of `{"comment","groups"}`:
    /// FTL's PUT replaces both (no `comment` erases it, no `groups` means Default alone) and
    /// creates an unknown client, so a missing one is `.notFound` and no PUT is sent.
    public func setClientGroups(_ client: String, _ groupIDs: [Int]) async throws -> PiHoleClientEntry {
        let path = "/api/clients/\(client.percentEncodedPathSegment)"
        let read = try await authenticated(.GET, path)
        guard let current = try decodeSuccess(PiHoleWire.ClientsResponse.self, read, what: "client").clients.first(where: { $0.client == client })
        else {
            throw PiHoleError(.notFound, "there is no client \(client)", status: read.status)
        }
        let body: JSONValue = ["comment": current.comment.map(JSONValue.string) ?? .null, "groups": .array(groupIDs.map { .number(Double($0)) })]
        return try await written(.PUT, path, body: body, client: client)
    }

    /// `POST /api/clients`: configures `client` in `groupIDs`; a client that exists is an error.
    public func addClient(_ client: String, groupIDs: [Int], comment: String?) async throws -> PiHoleClientEntry {
        let body: JSONValue = [
            "client": .string(client), "comment": comment.map(JSONValue.string) ?? .null,
            "groups": .array(groupIDs.map { .number(Double($0)) }),
        ]
        return try await written(.POST, "/api/clients", body: body, client: client)
    }

    /// The group `name`, made (enabled, with `comment`) when the Pi-hole has none of that name,
    /// with `POST /api/groups`: FTL's `PUT /api/groups/{name}` with a name in its body renames,
    /// and on an unknown name answers 200 and creates nothing. Read back after the POST: a name
    /// made meanwhile by someone else is an error under `processed` and still the group wanted.
    public func ensureGroup(_ name: String, comment: String) async throws -> PiHoleGroup {
        if let existing = try await groups().first(where: { $0.name == name }) { return existing }
        let response = try await authenticated(.POST, "/api/groups", body: PiHoleWire.groupRequest(name: name, comment: comment, enabled: true))
        let body = try decodeSuccess(PiHoleWire.GroupsResponse.self, response, what: "group creation result")
        guard let made = try await groups().first(where: { $0.name == name }) else {
            throw PiHoleError(.badRequest, body.processed?.errors?.first?.error ?? "group \(name) could not be made", status: response.status)
        }
        return made
    }

    private func written(_ method: HTTPMethod, _ path: String, body: JSONValue, client: String) async throws -> PiHoleClientEntry {
        let response = try await authenticated(method, path, body: Data(body.encoded()))
        let answer = try decodeSuccess(PiHoleWire.ClientsResponse.self, response, what: "client update result")
        if let failure = answer.processed?.errors?.first {
            throw PiHoleError(.badRequest, failure.error ?? "client \(client) could not be changed", status: response.status)
        }
        guard let entry = answer.clients.first(where: { $0.client == client }) else {
            throw PiHoleError.undecodable("client update result", status: response.status)
        }
        return entry.entry
    }
}

extension PiHoleWire {
    /// `GET /api/clients[/{client}]`; a `PUT` or `POST` adds `processed`.
    struct ClientsResponse: Decodable {
        struct Client: Decodable {
            let client: String
            let comment: String?
            let groups: [Int]
            let name: String?

            /// FTL says "no host name" as `""` (seen on 6.4.1): `nil` here, as where it says `null`.
            var entry: PiHoleClientEntry {
                PiHoleClientEntry(client: client, comment: comment, groups: groups, name: name?.isEmpty == false ? name : nil)
            }
        }
        let clients: [Client]
        let processed: ProcessedResponse.Processed?
    }
}
