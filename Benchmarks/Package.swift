// swift-tools-version: 6.0
import PackageDescription

// The benchmarks live in their own package so the library itself stays dependency-free.
let package = Package(
    name: "NetKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "NetKit", path: "..")],
    targets: [
        .executableTarget(
            name: "NetBenchmarks",
            dependencies: [
                .product(name: "NetCore", package: "NetKit"),
                .product(name: "NetCurl", package: "NetKit"),
                .product(name: "NetPlugins", package: "NetKit"),
                .product(name: "NetBatch", package: "NetKit"),
            ]
        ),
        // libcurl's own floor for the curl benchmark's work, in C (run by NetBenchmarks).
        .executableTarget(name: "CurlMultiReference", linkerSettings: [.linkedLibrary("curl")]),
    ],
    swiftLanguageModes: [.v6]
)
