import Testing

@testable import ObjectGraph

/// The stores the conformance suite runs against: every conformance test takes one of these as
/// its argument (`@Test(arguments: StoreKind.allCases)`), so every store must pass the same body.
/// PostgreSQL is among them when the tests could start a server (see `PostgreSQLTestServer`).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case inMemory
    case postgreSQL

    var testDescription: String { rawValue }

    /// Every store kind there is a store of in this test process.
    static var allCases: [StoreKind] {
        PostgreSQLTestServer.isAvailable ? [.sqlite, .inMemory, .postgreSQL] : [.sqlite, .inMemory]
    }

    /// Whether the store keeps its data when it is closed and opened again.
    var keepsDataWhenReopened: Bool { self != .inMemory }
}
