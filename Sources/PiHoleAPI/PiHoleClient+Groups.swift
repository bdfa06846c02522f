#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText
import UpstreamHTTP

extension PiHoleClient {
    /// `GET /api/groups`: every group, Default (id 0) included.
    public func groups() async throws -> [PiHoleGroup] {
        let response = try await authenticated(.GET, "/api/groups", maxBodySize: AnswerSize.list)
        return try decodeSuccess(PiHoleWire.GroupsResponse.self, response, what: "group list").groups.map(Self.group)
    }

    /// Enables or disables the group `name`, keeping its name and comment.
    ///
    /// `GET /api/groups/{name}` (percent-encoded) for the current object, then `PUT` of exactly
    /// `{"name","comment","enabled"}`: FTL's PUT replaces the whole group (no `comment` erases
    /// it, no `enabled` enables). A missing group is `.notFound` and no PUT is sent, because
    /// FTL's PUT would create it. Returns the group as the PUT answered.
    public func setGroupEnabled(_ name: String, _ enabled: Bool) async throws -> PiHoleGroup {
        let path = "/api/groups/\(name.percentEncodedPathSegment)"
        let read = try await authenticated(.GET, path)
        // An unknown name is answered 200 with an empty list.
        let listed = try decodeSuccess(PiHoleWire.GroupsResponse.self, read, what: "group").groups
        guard let current = listed.first(where: { $0.name == name }) else {
            throw PiHoleError(.notFound, "there is no group \(name)", status: read.status)
        }
        let payload = PiHoleWire.groupRequest(name: current.name, comment: current.comment, enabled: enabled)
        let response = try await authenticated(.PUT, path, body: payload)
        let body = try decodeSuccess(PiHoleWire.GroupsResponse.self, response, what: "group update result")
        if let failure = body.processed?.errors?.first {
            throw PiHoleError(
                .badRequest, failure.error ?? "group \(name) could not be changed", status: response.status)
        }
        // FTL answers with the group named in the URI (this one: it is never renamed here).
        guard let answered = body.groups.first(where: { $0.name == name }) else {
            return PiHoleGroup(id: current.id, name: current.name, comment: current.comment, enabled: enabled)
        }
        return Self.group(answered)
    }

    static func group(_ wire: PiHoleWire.Group) -> PiHoleGroup {
        PiHoleGroup(id: wire.id, name: wire.name, comment: wire.comment, enabled: wire.enabled)
    }
}
