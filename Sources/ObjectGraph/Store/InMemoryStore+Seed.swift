import Foundation

/// An in-memory store that starts from a SQLite store file (`url` in its description): the
/// way a test loads a store an older release wrote. The file is never changed: a copy of it is
/// opened as a SQLite store, migrated to the model as a file would be, and its objects (keys and
/// store identifier kept, so object IDs and URIs match the file's) and relationships become the
/// in-memory store's first save (see `StoreContents`).
extension InMemoryStore {
    /// The store identifier and the save that fill an in-memory store from the store file at `url`.
    static func seed(
        from url: URL, description: PersistentStoreDescription, model: ManagedObjectModel
    ) throws -> (identifier: String, request: (_ spaces: [ObjectIDSpace]) -> SaveRequest) {
        let path = SQLiteStoreState.fileSystemPath(url)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("seed.sqlite")
        do {
            let source = try SQLiteConnection(path: path, readOnly: true, busyTimeout: description.busyTimeout)
            defer { source.close() }
            try source.copy(into: copy.path, activity: "Cannot copy the store at \(path) into memory")
        }
        var fileDescription = description
        fileDescription.type = .sqlite
        fileDescription.url = copy
        fileDescription.isReadOnly = false
        fileDescription.backsUpStoreBeforeMigrating = false
        let store = try SQLiteStore(description: fileDescription, model: model)
        defer { store.close() }
        let contents = try StoreContents(of: store)
        return (store.identifier, { spaces in contents.saveRequest(model: model, spaces: spaces) })
    }
}
