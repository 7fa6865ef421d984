/// What `PersistentStoreCoordinator.recover(damaged:into:model:progress:)` got back from a damaged
/// store file: per entity the rows recovered and skipped, per to-many the pairs kept, what had to
/// be guessed or was found wrong.
public struct SalvageReport: Sendable, CustomStringConvertible {
    /// One entity's rows.
    public struct EntityResult: Sendable, Equatable {
        public let entityName: String
        /// Rows copied into the new store.
        public let rowsRecovered: Int
        /// Records found in the entity's table that were not copied: unreadable, not shaped as
        /// the model says, or a second copy of a unique value. (Rows of a sub-entity kept in its
        /// root's table are counted under the root.)
        public let rowsSkipped: Int
        /// To-one relationships of recovered rows set to nil because the object they pointed at
        /// was lost.
        public let referencesCleared: Int
    }

    /// One to-many relationship kept in a join table.
    public struct RelationshipResult: Sendable, Equatable {
        /// `Entity.relationship`, the owning side.
        public let name: String
        public let pairsRecovered: Int
        /// Pairs left out because one of their objects was lost.
        public let pairsDropped: Int
    }

    /// The model the new store was made with: the damaged file's own when its metadata could be
    /// read, else the one passed in.
    public let modelName: String
    public let modelVersion: Int
    /// Whether the model came from the damaged file's metadata.
    public let modelCameFromDamagedFile: Bool
    public let entities: [EntityResult]
    public let relationships: [RelationshipResult]
    /// Pages of the damaged file (and its `-wal`) read, and those that belonged to a table but
    /// could not be read.
    public let pageCount: Int
    public let damagedPages: Int
    /// What had to be guessed or was found wrong, in words.
    public let findings: [String]

    /// Rows recovered across every entity.
    public var rowsRecovered: Int { entities.reduce(0) { $0 + $1.rowsRecovered } }

    /// The rows recovered of `entityName` (0 for an unknown name).
    public func rowsRecovered(of entityName: String) -> Int {
        entities.first { $0.entityName == entityName }?.rowsRecovered ?? 0
    }

    public var description: String {
        var lines = [
            "Recovered \(rowsRecovered) rows with model '\(modelName)' version \(modelVersion)\(modelCameFromDamagedFile ? " (read from the file)" : " (as given; the file's own could not be read)"); \(damagedPages) of \(pageCount) pages could not be read."
        ]
        for entity in entities {
            var line = "  \(entity.entityName): \(entity.rowsRecovered) recovered"
            if entity.rowsSkipped > 0 { line += ", \(entity.rowsSkipped) skipped" }
            if entity.referencesCleared > 0 { line += ", \(entity.referencesCleared) references to lost objects cleared" }
            lines.append(line)
        }
        for relationship in relationships {
            lines.append(
                "  \(relationship.name): \(relationship.pairsRecovered) pairs recovered\(relationship.pairsDropped > 0 ? ", \(relationship.pairsDropped) dropped (an object was lost)" : "")"
            )
        }
        lines += findings.map { "  note: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// How far a salvage has got, for a progress line.
public struct SalvageProgress: Sendable {
    /// What it is doing: reading pages, then writing rows.
    public enum Phase: Sendable { case reading, writing }

    public let phase: Phase
    public let completed: Int
    public let total: Int
}
