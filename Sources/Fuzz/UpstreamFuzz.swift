#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BellasReefAPI
import PiHoleAPI
import UniFiAPI

/// An upstream answer's body, read as every answer of that appliance.
enum UpstreamFuzz {
    static func piHole(_ bytes: [UInt8]) { PiHoleWireFuzzing.readEveryAnswer(Data(bytes)) }
    static func uniFi(_ bytes: [UInt8]) { UniFiWireFuzzing.readEveryAnswer(Data(bytes)) }
    static func reef(_ bytes: [UInt8]) { BellasReefWireFuzzing.readEveryAnswer(Data(bytes)) }
}
