import JSONDocument
import PlainText
import UpstreamHTTP

/// Hotspot vouchers (`/v1/sites/{siteId}/hotspot/vouchers`, spec 10.5.66). Codes go into no
/// log line: a request that names one leaves its query out of the debug log.
extension UniFiClient {
    /// The vouchers not yet expired, up to `maxItems` of them, and how many there are.
    public func activeVouchers(site: String, upTo maxItems: Int) async throws -> (vouchers: [UniFiVoucher], totalCount: Int) {
        let read = try await pages(
            voucherPath(site: site), filter: .eq("expired", .bool(false)), what: "vouchers", upTo: maxItems)
        return (try read.items.map(Self.voucher), read.totalCount)
    }

    /// `POST`: makes `request.count` vouchers; the answer carries their codes. Read as a list:
    /// a thousand vouchers with every optional limit come near a single answer's bound.
    public func createVouchers(site: String, _ request: UniFiVoucherRequest) async throws -> [UniFiVoucher] {
        if let problem = request.problem() { throw UniFiError(.badRequest, problem) }
        let response = try await send(.POST, voucherPath(site: site), body: request.body, maxBodySize: AnswerSize.list)
        let answer = try json(response, what: "voucher creation")
        guard let made = answer["vouchers"]?.arrayValue else { throw UniFiError(.unexpectedResponse, "a voucher creation answer without vouchers") }
        return try made.map(Self.voucher)
    }

    /// `DELETE …/vouchers/{id}`: the number deleted (1).
    public func deleteVoucher(site: String, id: String) async throws -> Int {
        try Self.deleted(try json(try await send(.DELETE, voucherPath(site: site) + "/" + id.percentEncodedPathSegment), what: "voucher deletion"))
    }

    /// `DELETE …/vouchers?filter=code.eq('…')`: the number deleted (0 when no voucher has it).
    public func deleteVoucher(site: String, code: String) async throws -> Int {
        let query = "?filter=" + UniFiFilter.eq("code", .string(code)).queryValue
        return try Self.deleted(try json(try await send(.DELETE, voucherPath(site: site) + query, secretQuery: true), what: "voucher deletion"))
    }

    func voucherPath(site: String) -> String {
        "/v1/sites/\(site.percentEncodedPathSegment)/hotspot/vouchers"
    }

    private static func voucher(_ json: JSONValue) throws(UniFiError) -> UniFiVoucher {
        guard let voucher = UniFiVoucher(json) else {
            throw UniFiError(.unexpectedResponse, "a voucher without id, code, name, createdAt, authorizedGuestCount, expired or timeLimitMinutes")
        }
        return voucher
    }

    /// `Voucher deletion results`: `{"vouchersDeleted": n}`.
    private static func deleted(_ answer: JSONValue) throws(UniFiError) -> Int {
        guard let count = answer["vouchersDeleted"]?.numberValue.flatMap({ Int(exactly: $0) }) else {
            throw UniFiError(.unexpectedResponse, "a voucher deletion answer without vouchersDeleted")
        }
        return count
    }
}
