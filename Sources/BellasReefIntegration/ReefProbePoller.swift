import BellasReefAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// The temperature service: the probe list, then every probe's reading at once
/// (`temperature_interval`). A probe that fails to read says so; it never keeps an old value.
struct ReefProbePoller: Sendable {
    let services: ReefServices
    let logger: Logger

    func poll() async {
        async let health: Bool = services.readHealth(.temperature)
        let list: BellasReefProbeList
        do {
            list = try await services.upstream.call(.temperature) { try await $0.probes() }
        } catch {
            services.failed(.temperature, error)
            services.state.update { snapshot in
                for address in snapshot.probes.keys {
                    snapshot.probes[address]?.record(.failure(ReefUnavailable.temperature), at: services.clock.wallNow)
                }
            }
            _ = await health
            return
        }
        switch list {
        case .noProbeRoutes:
            let first = services.state.update { snapshot in
                defer {
                    snapshot.probeRoutes = false
                    snapshot.replaceProbes([])
                }
                return snapshot.probeRoutes
            }
            if first {
                logger.notice("this build of the Bella's Reef temperature service has no probe routes: no probes to publish")
            }
            // Nothing else to ask this build: it is there when its health answers.
            if await health { services.answered(.temperature) } else { services.failed(.temperature, ReefUnavailable.temperature) }
        case .probes(let probes):
            services.state.update { snapshot in
                snapshot.probeRoutes = true
                snapshot.replaceProbes(probes)
            }
            services.answered(.temperature)
            await withDiscardingTaskGroup { group in
                for probe in probes {
                    group.addTask { await read(probe) }
                }
            }
            _ = await health
        }
    }

    private func read(_ probe: BellasReefProbe) async {
        let unit = probe.readingUnit
        let result: Result<Double, any Error>
        do {
            result = .success(try await services.upstream.call(.temperature) { try await $0.probeReading(hardwareID: probe.address, unit: unit) })
        } catch {
            result = .failure(error)
        }
        services.state.update { $0.probes[probe.address]?.record(result, at: services.clock.wallNow) }
    }
}

extension BellasReefProbe {
    /// The unit the probe is configured for: Fahrenheit when it says `F`, Celsius otherwise.
    var readingUnit: BellasReefTemperatureUnit { unit?.uppercased() == "F" ? .fahrenheit : .celsius }
    var unitSymbol: String { readingUnit == .fahrenheit ? "°F" : "°C" }
}

/// Why a reading is missing when its service does not answer.
enum ReefUnavailable: Error, CustomStringConvertible {
    case temperature
    case outlets

    var description: String {
        switch self {
        case .temperature: "the temperature service does not answer"
        case .outlets: "the smart-outlet service does not answer"
        }
    }
}
