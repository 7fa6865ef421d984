import Foundation

/// How far a migration has come, reported to `PersistentStoreDescription.migrationProgressHandler`
/// after each table it copies: rows copied of the rows it will copy (the store's rows once per
/// step between versions).
public struct MigrationProgress: Sendable, CustomStringConvertible {
    /// Rows copied so far.
    public let completedRows: Int
    /// Rows the whole migration copies.
    public let totalRows: Int
    /// What was copied last, such as `version 1 → 2: Person`, or `done`.
    public let step: String

    /// `completedRows / totalRows`, 1 for a store with no rows.
    public var fractionCompleted: Double { totalRows == 0 ? 1 : Double(completedRows) / Double(totalRows) }

    public var description: String {
        "\(Int((fractionCompleted * 100).rounded()))% (\(completedRows) of \(totalRows) rows) \(step)"
    }
}

extension PersistentStoreDescription {
    /// What a migration reports its progress to: the handler and the Foundation `Progress`,
    /// when either is set.
    package var migrationProgressReporter: (@Sendable (MigrationProgress) -> Void)? {
        let handler = migrationProgressHandler, progress = migrationProgress
        guard handler != nil || progress != nil else { return nil }
        return { figures in
            progress?.totalUnitCount = Int64(figures.totalRows)
            progress?.completedUnitCount = Int64(figures.completedRows)
            handler?(figures)
        }
    }
}
