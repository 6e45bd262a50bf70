// swift-tools-version: 6.0
import PackageDescription

// A whole NetKit client to copy: the API described once (HTTPBinAPI), an app that uses it
// against a running httpbin (HTTPBinTour) and its tests on stubs (HTTPBinAPITests).
// In a project of your own, replace `path: "../.."` with
// `.package(url: "<NetKit's git URL>", revision: "<commit>")`.
let package = Package(
    name: "HTTPBinClient",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "NetKit", path: "../..")],
    targets: [
        .target(
            name: "HTTPBinAPI",
            dependencies: [.product(name: "NetCore", package: "NetKit")]
        ),
        .executableTarget(
            name: "HTTPBinTour",
            dependencies: [
                "HTTPBinAPI",
                .product(name: "NetCore", package: "NetKit"),
                .product(name: "NetPlugins", package: "NetKit"),
                .product(name: "NetBatch", package: "NetKit"),
                .product(name: "NetChain", package: "NetKit"),
            ]
        ),
        .testTarget(
            name: "HTTPBinAPITests",
            dependencies: ["HTTPBinAPI", .product(name: "NetCore", package: "NetKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
