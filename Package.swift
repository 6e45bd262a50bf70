// swift-tools-version: 6.0
import PackageDescription

// NetKit has no package dependencies: Foundation, Dispatch, Synchronization and, on Linux,
// the system libcurl and its OpenSSL are all it needs.
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
        // Values and contracts every layer shares: targets, requests, responses, errors, the plugin
        // and transport protocols, encoding, redaction, cookies, redirects. No threads of its own.
        .target(name: "NetBase"),
        // The libcurl engine (Linux); on Apple platforms the module is empty.
        .target(
            name: "NetCurl",
            dependencies: [
                "NetBase", .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "CCurlOpenSSL", condition: .when(platforms: [.linux])),
            ]
        ),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The OpenSSL under libcurl, for the pin check inside the TLS handshake (NetCurl/CurlHandshakePins.swift).
        .systemLibrary(name: "CCurlOpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // The URLSession transport.
        .target(name: "NetURLSession", dependencies: ["NetBase"]),
        // Provider, the pipeline, streams, stubs and the default transport of the platform; it
        // re-exports the layers below, so `import NetCore` is the one import a user needs.
        .target(name: "NetCore", dependencies: ["NetBase", "NetURLSession", "NetCurl"]),
        .target(name: "NetPlugins", dependencies: ["NetCore"]),
        .target(name: "NetBatch", dependencies: ["NetCore"]),
        .target(name: "NetChain", dependencies: ["NetCore"]),
        .executableTarget(
            name: "NetDemo",
            dependencies: ["NetCore", "NetPlugins", "NetBatch", "NetChain", "NetCurl"]
        ),
        // Helpers shared by the live-server test targets (not a product).
        .target(name: "NetTestSupport", dependencies: ["NetCore"], path: "Tests/NetTestSupport"),
        .testTarget(name: "NetCoreTests", dependencies: ["NetCore", "NetBase", "NetTestSupport"]),
        .testTarget(name: "NetURLSessionTests", dependencies: ["NetCore", "NetBase", "NetURLSession"]),
        .testTarget(name: "NetCurlTests", dependencies: ["NetCore", "NetBase", "NetCurl", "NetTestSupport"]),
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
