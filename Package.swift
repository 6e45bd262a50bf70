// swift-tools-version: 6.0
import PackageDescription

// NetKit has no package dependencies: Foundation, Dispatch, Synchronization and, on Linux,
// the system libcurl are all it needs.
let package = Package(
    name: "NetKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "NetCore", targets: ["NetCore"]),
        .library(name: "NetPlugins", targets: ["NetPlugins"]),
        .library(name: "NetBatch", targets: ["NetBatch"]),
        .library(name: "NetChain", targets: ["NetChain"]),
        .library(name: "NetCurl", targets: ["NetCurl"]),
        .executable(name: "NetDemo", targets: ["NetDemo"]),
    ],
    targets: [
        // On Linux NetCore includes CurlTransport, its default transport; Apple platforms use
        // URLSession and never need libcurl.
        .target(name: "NetCore", dependencies: [.target(name: "CCurl", condition: .when(platforms: [.linux]))]),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // Re-exports NetCore (CurlTransport included) for code that imports NetCurl.
        .target(name: "NetCurl", dependencies: ["NetCore"]),
        .target(name: "NetPlugins", dependencies: ["NetCore"]),
        .target(name: "NetBatch", dependencies: ["NetCore"]),
        .target(name: "NetChain", dependencies: ["NetCore"]),
        .executableTarget(
            name: "NetDemo",
            dependencies: ["NetCore", "NetPlugins", "NetBatch", "NetChain", "NetCurl"]
        ),
        // Helpers shared by the live-server test targets (not a product).
        .target(name: "NetTestSupport", dependencies: ["NetCore"], path: "Tests/NetTestSupport"),
        .testTarget(name: "NetCoreTests", dependencies: ["NetCore"]),
        .testTarget(name: "NetCurlTests", dependencies: ["NetCore", "NetCurl", "NetTestSupport"]),
        .testTarget(name: "NetPluginsTests", dependencies: ["NetCore", "NetPlugins", "NetTestSupport"]),
        .testTarget(name: "CachePluginTests", dependencies: ["NetCore", "NetPlugins", "NetTestSupport"]),
        .testTarget(name: "NetBatchTests", dependencies: ["NetCore", "NetBatch", "NetTestSupport"]),
        .testTarget(name: "NetChainTests", dependencies: ["NetCore", "NetChain", "NetBatch", "NetTestSupport"]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["NetCore", "NetPlugins", "NetBatch", "NetChain", "NetCurl", "NetTestSupport"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["NetCore", "NetCurl", "NetPlugins", "NetBatch", "NetChain", "NetTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
