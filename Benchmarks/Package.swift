// swift-tools-version: 6.0
import PackageDescription

// The benchmarks live in their own package so the library itself stays dependency-free; here
// AsyncHTTPClient runs beside NetKit as the peer every request table compares against.
let package = Package(
    name: "NetKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "NetKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
            ]
        ),
        // libcurl's own floor for the curl benchmark's work, in C (run by NetBenchmarks).
        .executableTarget(name: "CurlMultiReference", linkerSettings: [.linkedLibrary("curl")]),
    ],
    swiftLanguageModes: [.v6]
)
