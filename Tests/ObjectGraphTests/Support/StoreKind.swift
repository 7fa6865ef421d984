import Testing
@testable import ObjectGraph

/// The stores the conformance suite runs against: every conformance test takes one of these as
/// its argument (`@Test(arguments: StoreKind.allCases)`), so both stores must pass the same body.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case inMemory

    var testDescription: String { rawValue }
}
