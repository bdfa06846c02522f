import BridgeCore
import UniFiAPI

/// A console's active vouchers, as state shows them: never a code.
struct VoucherList: Sendable, Equatable {
    /// At most ``UniFiController/voucherListLimit``, codes stripped.
    let vouchers: [UniFiVoucher]
    /// How many the console has.
    let totalCount: Int

    var isComplete: Bool { vouchers.count >= totalCount }
}

extension UniFiController {
    /// A household has a handful; one creation may make a thousand. State lists this many.
    static let voucherListLimit = 250

    /// Reads the active vouchers (every page up to the limit). A failure keeps the list as last
    /// read and is logged when it changes: vouchers say nothing of whether the rules can be switched.
    func refreshVouchers() async {
        do {
            let (api, site) = try await connection()
            let read = try await metrics.measure { try await api.activeVouchers(site: site.id, upTo: Self.voucherListLimit) }
            status.vouchers = VoucherList(vouchers: read.vouchers.map(\.withoutCode), totalCount: read.totalCount)
            status.voucherError = nil
        } catch {
            if status.voucherError != "\(error)" { logger.warning("UniFi vouchers could not be read", metadata: ["error": "\(error)"]) }
            status.voucherError = "\(error)"
        }
    }

    /// The names of the console's guest networks (enabled, with the captive portal a code is typed
    /// into), for the answer that carries the code; `nil` when the console cannot say (one older
    /// than the document of 10.5.66 has no Wi-Fi broadcasts in its API). Read before a voucher is
    /// made, never after: a slow answer then runs out the command's time before the code exists,
    /// not after, when the code would be lost.
    func guestNetworkNames() async throws(CancellationError) -> [String]? {
        do {
            let (api, site) = try await connection()
            return try await metrics.measure { try await api.guestNetworkNames(site: site.id) }
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            logger.notice("UniFi guest networks could not be read", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Makes vouchers; the answer (with the codes) is the caller's alone. The list is read again.
    func createVouchers(_ request: UniFiVoucherRequest) async throws -> [UniFiVoucher] {
        let (api, site) = try await connection()
        let made = try await metrics.measure { try await api.createVouchers(site: site.id, request) }
        logger.info("UniFi vouchers made", metadata: ["count": "\(made.count)", "minutes": "\(request.minutes)"])
        await refreshVouchers()
        return made
    }

    /// Deletes vouchers with `delete` (client, site id): the number deleted. The list is read again.
    func revokeVouchers(_ delete: @Sendable (UniFiClient, String) async throws -> Int) async throws -> Int {
        let (api, site) = try await connection()
        let deleted = try await metrics.measure { try await delete(api, site.id) }
        logger.info("UniFi vouchers revoked", metadata: ["count": "\(deleted)"])
        await refreshVouchers()
        return deleted
    }
}
