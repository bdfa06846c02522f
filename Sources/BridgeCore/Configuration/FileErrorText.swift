#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file error in the system's words ("No such file or directory"), for messages a person
/// reads. `localizedDescription` would say it too, but lives in the full Foundation, which links
/// ICU's data into the binary.
public func fileErrorText(_ error: any Error) -> String {
    if let posix = error as? POSIXError ?? (error as? CocoaError)?.underlying as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
    }
    if let cocoa = error as? CocoaError {
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        default: return "file error \(cocoa.code.rawValue)"
        }
    }
    return "\(error)"
}
