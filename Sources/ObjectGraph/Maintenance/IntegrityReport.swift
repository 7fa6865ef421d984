/// What `PersistentStoreCoordinator.checkIntegrity(quick:)` found: every problem, none when the
/// store is sound.
public struct IntegrityReport: Sendable, CustomStringConvertible {
    /// One problem found in a store.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// What kind of problem it is.
        public enum Kind: String, Sendable {
            /// SQLite's own check (`quick_check` or `integrity_check`) found the file damaged.
            case damagedFile
            /// The store's metadata is unreadable, or records another model than the store's.
            case metadata
            /// A table or column the model needs is missing, or has another type than the store
            /// gives it (checked on PostgreSQL, whose tables anyone with access may alter).
            case schema
            /// A relationship refers to an object that does not exist.
            case danglingReference
            /// A row names an entity its table does not hold.
            case wrongEntity
        }

        /// What kind of problem it is.
        public let kind: Kind
        /// The entity concerned, when there is one.
        public let entityName: String?
        /// The problem in words.
        public let message: String

        package init(kind: Kind, entityName: String?, message: String) {
            self.kind = kind
            self.entityName = entityName
            self.message = message
        }

        public var description: String { message }
    }

    /// Every problem found, in the order of the checks.
    public let problems: [Problem]

    /// Whether the store passed every check.
    public var isSound: Bool { problems.isEmpty }

    public var description: String {
        isSound ? "ok" : problems.map { "- \($0)" }.joined(separator: "\n")
    }
}
