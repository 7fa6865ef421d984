import ArgumentParser
import Foundation
import Testing

@testable import ObjectGraphTool

/// `objectgraph check` of a PostgreSQL store. (Its checks are tested in ObjectGraphTests'
/// `IntegrityCheckTests`, which start a PostgreSQL server; store files in `MigrationCommandTests`.)
@Suite struct CheckCommandTests {
    /// A `postgres://` URL is opened as a PostgreSQL store; one that cannot be reached is named
    /// in the error without its password.
    @Test func aDatabaseThatCannotBeReachedIsNamedWithoutItsPassword() throws {
        let output = try runTool(["check", "postgres://app:secret@127.0.0.1:1/shop?connect_timeout=2"])
        #expect(output.exitCode == .failure)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.hasPrefix("postgres://app@127.0.0.1:1/shop?connect_timeout=2: "), "\(output.standardError)")
        #expect(output.standardError.contains("PostgreSQL"), "\(output.standardError)")
        #expect(!output.standardError.contains("secret"))
    }
}
