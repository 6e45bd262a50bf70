// swift-tools-version: 6.1
import PackageDescription

// NetKit needs no package: Foundation, Dispatch, Synchronization and, on Linux, the system libcurl,
// its OpenSSL and zlib are all it uses by default. The ecosystem integrations are package traits, all
// off by default; a package used only under a disabled trait is not even fetched
// (scripts/check-dependencies).
//   .package(url: "https://github.com/…/NetKit", from: "…", traits: ["Logging", "Metrics", "Tracing", "OpenAPI"])
let package = Package(
    name: "NetKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // NetBase and NetURLSession are in the NetCore product (NetCore links them anyway) so that
        // `swift package diagnose-api-breaking-changes` (scripts/check-api) compares their API too.
        .library(name: "NetCore", targets: ["NetCore", "NetBase", "NetURLSession"]),
        .library(name: "NetPlugins", targets: ["NetPlugins"]),
        .library(name: "NetBatch", targets: ["NetBatch"]),
        .library(name: "NetChain", targets: ["NetChain"]),
        .library(name: "NetCurl", targets: ["NetCurl"]),
        .library(name: "NetOpenAPI", targets: ["NetOpenAPI"]),
        .executable(name: "NetDemo", targets: ["NetDemo"]),
    ],
    traits: [
        .trait(name: "Logging", description: "NetKit's log lines and call events go to a swift-log Logger."),
        .trait(name: "Metrics", description: "Counters and timers of every call go to swift-metrics."),
        .trait(name: "Tracing", description: "A swift-distributed-tracing client span per call, its context in the headers."),
        .trait(name: "OpenAPI", description: "NetOpenAPI: NetKitTransport, a swift-openapi-runtime ClientTransport."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The package toolbox under everything: locks, clocks, once-values, POSIX reads and writes,
        // SHA-256, durations, backoff, whitespace and JSON-path helpers. Package API only.
        .target(name: "NetToolbox"),
        // The redaction engine under NetBase: which names hide their values (`RedactionRules`),
        // URL, free-text and body redaction (JSON, form, multipart) and the known secret
        // values scrubbed everywhere else. Package API only; what takes a `Request` stays in NetBase.
        .target(name: "NetRedaction", dependencies: ["NetToolbox"]),
        // Values and contracts every layer shares: targets, requests, responses, errors, the plugin
        // and transport protocols, encoding, events, the request side of the redaction their
        // descriptions apply, the public cookie jar. No engine, no threads of its own.
        .target(name: "NetBase", dependencies: ["NetToolbox", "NetRedaction"]),
        // What every transport does the same way around a single exchange, above NetBase: request
        // checks, capability refusals, redirects hop by hop, body stream reading, Content-Length
        // checks, the environment's proxy variables. Package API only.
        .target(name: "NetTransportSupport", dependencies: ["NetBase", "NetToolbox"]),
        // The WebSocket engine every transport shares (RFC 6455/7692): frame codec, connection state
        // machine, handshake, permessage-deflate parameters, SHA-1, UTF-8 validation, the inbox,
        // observers. Package API only; the public `WebSocket` values stay in NetBase.
        .target(name: "NetWebSocketCore", dependencies: ["NetBase", "NetToolbox"]),
        // The libcurl engine (Linux); on Apple platforms the module is empty.
        .target(
            name: "NetCurl",
            dependencies: [
                "NetBase", "NetToolbox", "NetRedaction", "NetTransportSupport", "NetWebSocketCore",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "CCurlOpenSSL", condition: .when(platforms: [.linux])),
                .target(name: "CZlib", condition: .when(platforms: [.linux])),
            ]
        ),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The OpenSSL under libcurl, for the pin check inside the TLS handshake (NetCurl/CurlHandshakePins.swift).
        .systemLibrary(name: "CCurlOpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // zlib's raw deflate, for the curl WebSocket's permessage-deflate (NetCurl/WebSocket/CurlWebSocketDeflate.swift).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The URLSession transport.
        .target(name: "NetURLSession", dependencies: ["NetBase", "NetToolbox", "NetTransportSupport", "NetWebSocketCore"]),
        // Provider, the pipeline, streams, stubs and the default transport of the platform; it
        // re-exports the layers below, so `import NetCore` is the one import a user needs.
        // The integrations live in NetCore/Integrations, each file behind `#if <Trait>`.
        .target(
            name: "NetCore",
            dependencies: [
                "NetBase", "NetToolbox", "NetRedaction", "NetTransportSupport", "NetWebSocketCore", "NetURLSession", "NetCurl",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ]
        ),
        .target(
            name: "NetPlugins",
            dependencies: [
                "NetCore", "NetToolbox", "NetRedaction", "NetWebSocketCore",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]
        ),
        .target(name: "NetBatch", dependencies: ["NetCore", "NetToolbox"]),
        .target(name: "NetChain", dependencies: ["NetCore"]),
        // NetKitTransport for generated OpenAPI clients; empty unless the OpenAPI trait is on.
        .target(
            name: "NetOpenAPI",
            dependencies: [
                "NetCore", "NetToolbox",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        .executableTarget(
            name: "NetDemo",
            dependencies: ["NetCore", "NetPlugins", "NetBatch", "NetChain", "NetCurl", "NetToolbox"]
        ),
        // Helpers shared by the live-server test targets (not a product).
        .target(name: "NetTestSupport", dependencies: ["NetCore", "NetToolbox"], path: "Tests/NetTestSupport"),
        // The benchmarks' heap-allocation counter (one C file, shared by path), for the allocation
        // budget below.
        .target(name: "NetMallocCounter", path: "Benchmarks/Sources/MallocCounter"),
        // Heap allocations per request under a budget: the request path's layout rules, guarded
        // (a debug build; scripts/test runs it, the sanitizer passes leave it out).
        .testTarget(
            name: "AllocationBudgetTests", dependencies: ["NetCore", "NetMallocCounter", "NetTestSupport"],
            exclude: ["RequestPathRules.md"]),
        .testTarget(name: "NetBaseTests", dependencies: ["NetBase", "NetToolbox", "NetTestSupport"]),
        .testTarget(name: "NetToolboxTests", dependencies: ["NetToolbox"]),
        .testTarget(name: "NetRedactionTests", dependencies: ["NetRedaction"]),
        .testTarget(name: "NetTransportSupportTests", dependencies: ["NetTransportSupport", "NetBase"]),
        .testTarget(name: "NetWebSocketCoreTests", dependencies: ["NetWebSocketCore", "NetBase", "NetToolbox"]),
        .testTarget(
            name: "NetCoreTests", dependencies: ["NetCore", "NetToolbox", "NetBase", "NetTransportSupport", "NetWebSocketCore", "NetTestSupport"]),
        .testTarget(name: "NetURLSessionTests", dependencies: ["NetCore", "NetToolbox", "NetBase", "NetURLSession", "NetWebSocketCore"]),
        .testTarget(name: "NetCurlTests", dependencies: ["NetCore", "NetToolbox", "NetBase", "NetCurl", "NetWebSocketCore", "NetTestSupport"]),
        .testTarget(name: "NetPluginsTests", dependencies: ["NetCore", "NetToolbox", "NetRedaction", "NetPlugins", "NetWebSocketCore", "NetTestSupport"]),
        .testTarget(name: "CachePluginTests", dependencies: ["NetCore", "NetToolbox", "NetPlugins", "NetTestSupport"]),
        .testTarget(name: "NetBatchTests", dependencies: ["NetCore", "NetToolbox", "NetBatch", "NetTestSupport"]),
        .testTarget(name: "NetChainTests", dependencies: ["NetCore", "NetToolbox", "NetChain", "NetBatch", "NetTestSupport"]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "NetCore", "NetToolbox", "NetPlugins", "NetBatch", "NetChain", "NetCurl", "NetTestSupport", "NetOpenAPI",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]
        ),
        // The trait-gated suites (empty in a default build); CI runs them with every trait on.
        .testTarget(
            name: "EcosystemTests",
            dependencies: [
                "NetCore", "NetToolbox", "NetPlugins", "NetOpenAPI", "NetTestSupport",
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["NetCore", "NetToolbox", "NetCurl", "NetPlugins", "NetBatch", "NetChain", "NetTestSupport", "NetWebSocketCore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
