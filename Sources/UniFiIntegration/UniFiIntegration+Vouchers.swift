import BridgeCore
import UniFiAPI

/// The voucher a Home Assistant button made last, code and all.
struct LatestVoucher: Sendable, Equatable {
    let controller: String
    let voucher: UniFiVoucher
}

/// Guest Wi-Fi vouchers: made and revoked by command, their codes only in the answer to the
/// requester (and, for a Home Assistant button, on the retained `voucher/latest`). State lists
/// the active vouchers without codes; no log line carries one.
extension UniFiIntegration {
    /// `codesInAnswer` false: the answer goes where every subscriber reads it, and carries no
    /// code; it says where the code is instead.
    func voucher(_ command: VoucherCommand, controller: UniFiController, codesInAnswer: Bool) async throws(CommandError) -> JSONValue {
        do {
            switch command {
            case .create(let request, let fromPreset):
                let guestNetworks = try await controller.guestNetworkNames()
                let made = try await controller.createVouchers(request)
                if fromPreset, configuration.vouchers.retainLatestCode, let last = made.last {
                    latestVoucher.withLock { $0 = LatestVoucher(controller: controller.id, voucher: last) }
                }
                publishRequests.request()
                var answer: [String: JSONValue] = [
                    "controller": .string(controller.id), "vouchers": .array(made.map { VoucherPayload.voucher(codesInAnswer ? $0 : $0.withoutCode) }),
                    "guest_networks": guestNetworks.map { .array($0.map(JSONValue.string)) } ?? .null,
                ]
                if !codesInAnswer {
                    let latest = fromPreset && configuration.vouchers.retainLatestCode ? "; the code is on voucher/latest" : ""
                    answer["codes"] = .string("withheld: this answer is on <topic>/response, which every subscriber reads; "
                        + "send with an MQTT 5 response topic (home2mqtt voucher does) for the codes\(latest)")
                }
                return .object(answer)
            case .revokeID(let id):
                let deleted = try await controller.revokeVouchers { try await $0.deleteVoucher(site: $1, id: id) }
                return revoked(deleted, controller) { $0.id == id }
            case .revokeCode(let code):
                let deleted = try await controller.revokeVouchers { try await $0.deleteVoucher(site: $1, code: code) }
                guard deleted > 0 else { throw CommandError("\(controller.id): no voucher has this code", code: .notFound) }
                return revoked(deleted, controller) { $0.code == code }
            }
        } catch let error as CommandError {
            throw error
        } catch let error as UniFiError where error.code == .notFound {
            throw CommandError("\(controller.id): no such voucher", code: .notFound)
        } catch {
            throw CommandError("\(controller.id)", failure: error)
        }
    }

    /// Also forgets the latest code when `isRevoked` says its voucher was the one: a list too long
    /// to show them all cannot say that it went.
    private func revoked(_ count: Int, _ controller: UniFiController, _ isRevoked: (UniFiVoucher) -> Bool) -> JSONValue {
        latestVoucher.withLock { latest in
            if let current = latest, current.controller == controller.id, isRevoked(current.voucher) { latest = nil }
        }
        publishRequests.request()
        return ["controller": .string(controller.id), "revoked": .number(Double(count))]
    }

    /// Each console's voucher list once read, and the latest code while its voucher is active.
    func voucherMessages(_ statuses: [(id: String, status: UniFiController.ControllerStatus)]) -> [(topic: String, message: StateMessage)] {
        var messages = statuses.compactMap { id, status in
            status.vouchers.map { (UniFiTopics.controllerVouchers(id), StateMessage.json(VoucherPayload.list($0))) }
        }
        let latest = latestVoucher.withLock { latest -> LatestVoucher? in
            // Revoked, or expired and gone from a complete list: its code is of no more use.
            if let current = latest, let list = statuses.first(where: { $0.id == current.controller })?.status.vouchers,
               list.isComplete, !list.vouchers.contains(where: { $0.id == current.voucher.id }) {
                latest = nil
            }
            return latest
        }
        if let latest { messages.append((UniFiTopics.latestVoucher, .json(VoucherPayload.voucher(latest.voucher, controller: latest.controller)))) }
        return messages
    }
}

/// Vouchers as MQTT shows them. `code` is there only when the voucher carries one.
enum VoucherPayload {
    static func voucher(_ voucher: UniFiVoucher, controller: String? = nil) -> JSONValue {
        func number(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var payload: [String: JSONValue] = [
            "id": .string(voucher.id), "note": .string(voucher.note), "minutes": number(voucher.minutes),
            "guests": number(voucher.guestLimit), "guests_used": number(voucher.guestCount), "created_at": .string(voucher.createdAt),
            "activated_at": text(voucher.activatedAt), "expires_at": text(voucher.expiresAt), "data_mb": number(voucher.dataLimitMB),
            "down_kbps": number(voucher.downloadKbps), "up_kbps": number(voucher.uploadKbps),
        ]
        if let code = voucher.code { payload["code"] = .string(code) }
        if let controller { payload["controller"] = .string(controller) }
        return .object(payload)
    }

    static func list(_ list: VoucherList) -> JSONValue {
        [
            "count": .number(Double(list.totalCount)), "truncated": .bool(!list.isComplete),
            "vouchers": .array(list.vouchers.map { voucher($0.withoutCode) }),
        ]
    }
}
