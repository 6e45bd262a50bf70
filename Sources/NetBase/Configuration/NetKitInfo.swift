import Foundation

/// What NetKit says about itself on the wire.
public enum NetKitInfo {
    /// This release of NetKit.
    public static let version = "1.0.0"

    /// The default `User-Agent`: `NetKit/<version> (<OS>)`. Configuration headers and target
    /// headers replace it.
    public static let userAgent: String = {
        #if os(Linux)
            let system = "Linux"
        #elseif os(macOS)
            let system = "macOS"
        #elseif os(iOS)
            let system = "iOS"
        #else
            let system = "Apple"
        #endif
        return "NetKit/\(version) (\(system))"
    }()
}
