// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so the library itself stays dependency-free; here
// AsyncHTTPClient runs beside NetKit as the peer every request table compares against.
let package = Package(
    name: "NetKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Every trait on, for the observability row (logger, metrics and tracing on no-op backends);
        // AsyncHTTPClient as the peer every request table compares against.
        .package(name: "NetKit", path: "..", traits: ["Logging", "Metrics", "Tracing"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // WSClient (SwiftNIO), the peer of the WebSocket rows.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
    ],
    targets: [
        .executableTarget(
            name: "NetBenchmarks",
            dependencies: [
                .product(name: "NetCore", package: "NetKit"),
                .product(name: "NetCurl", package: "NetKit"),
                .product(name: "NetPlugins", package: "NetKit"),
                .product(name: "NetBatch", package: "NetKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                "MallocCounter",
            ]
        ),
        // The SwiftNIO WebSocket echo server both clients of the WebSocket peer rows talk to.
        .executableTarget(
            name: "WebSocketEchoServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // Counts the process's heap allocations (glibc), for the tables' mallocs per request.
        .target(name: "MallocCounter"),
        // libcurl's own floor for the curl benchmark's work, in C (run by NetBenchmarks).
        .executableTarget(name: "CurlMultiReference", linkerSettings: [.linkedLibrary("curl")]),
    ],
    swiftLanguageModes: [.v6]
)
