/// How a store of a kind that ObjectGraph itself does not know is opened: a product that adds a
/// store kind (`ObjectGraphPostgres`) puts one in the descriptions it makes, so the coordinator
/// and the container open that store as they open SQLite's, with the same API.
package struct PersistentStoreOpener: Sendable {
    /// Opens (or creates) the store `description` names, for `model`.
    package let open: @Sendable (PersistentStoreDescription, ManagedObjectModel) throws -> any PersistentStore
    /// The description as people read it in messages ("PostgreSQL store at …"), with no secret.
    package let describe: @Sendable (PersistentStoreDescription) -> String

    package init(
        open: @escaping @Sendable (PersistentStoreDescription, ManagedObjectModel) throws -> any PersistentStore,
        describe: @escaping @Sendable (PersistentStoreDescription) -> String
    ) {
        self.open = open
        self.describe = describe
    }
}
