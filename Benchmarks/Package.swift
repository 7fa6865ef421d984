// swift-tools-version: 6.1
import PackageDescription

// A separate package so that GRDB, a benchmark-only dependency, never reaches users of ObjectGraph.
let package = Package(
    name: "ObjectGraphBenchmarks",
    products: [
        .executable(name: "objectgraph-bench", targets: ["ObjectGraphBench"]),
    ],
    dependencies: [
        // Named, so that the product reference below does not depend on the checkout folder's name.
        .package(name: "ObjectGraph", path: "../"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The raw PostgreSQL baseline (`pgraw`), the same client the ObjectGraphPostgres store uses.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The system SQLite for the raw C baseline (the main package's CSQLite is not a product),
        // and glibc's malloc_trim for the memory figures.
        .systemLibrary(
            name: "BenchSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "ObjectGraphBench",
            dependencies: [
                "BenchSQLite",
                .product(name: "ObjectGraph", package: "ObjectGraph"),
                .product(name: "ObjectGraphPostgres", package: "ObjectGraph"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
