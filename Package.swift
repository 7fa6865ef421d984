// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ObjectGraph",
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "objectgraph", targets: ["ObjectGraphTool"]),
        .executable(name: "library-demo", targets: ["LibraryDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ObjectGraphTool",
            dependencies: [
                "ObjectGraph",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LibraryDemo",
            dependencies: ["ObjectGraph"],
            resources: [.process("Models")],
            swiftSettings: strictSettings
        ),
        // A second process for the tests of several processes writing one store file; see its main.swift.
        .executableTarget(
            name: "ObjectGraphTestWriter",
            dependencies: ["ObjectGraph"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: ["ObjectGraph"],
            resources: [.process("Models")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ObjectGraphToolTests",
            dependencies: ["ObjectGraphTool", "ObjectGraph"],
            swiftSettings: strictSettings
        ),
    ]
)
