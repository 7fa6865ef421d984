/// Notices commits to a store's file through `PRAGMA data_version` on a connection of its own,
/// which changes whenever any other connection has committed since it last looked: the store's
/// writer, another coordinator's store in this process, another process. `generation()` counts
/// the changes seen; the coordinator's row cache compares it to drop rows that may be stale.
///
/// The store's own commits are not changes a cache must fear (a save through the coordinator
/// empties the row cache itself), so after each one the writer calls `absorbOwnCommit`.
///
/// One dedicated connection, rather than the readers', because a connection's data version only
/// says whether the file changed since that same connection last asked.
final class SQLiteChangeMonitor: Sendable {
    private struct State {
        var connection: SQLiteConnection?
        var dataVersion: Int64
        var generation: UInt64 = 0
        /// The writer's own `PRAGMA data_version` when it last committed, which changes only
        /// for commits by other connections.
        var writerDataVersion: Int64
    }

    private let state: Locked<State>

    /// Opens the monitor's connection and takes the file's current state as the starting point.
    /// `writerDataVersion` is the writer's data version when it opened.
    init(path: String, description: PersistentStoreDescription, writerDataVersion: Int64) throws {
        let connection = try SQLiteReaderPool.openConnection(path: path, description: description)
        let version = try SQLiteStoreState.dataVersion(on: connection)
        state = Locked(State(connection: connection, dataVersion: version, writerDataVersion: writerDataVersion))
    }

    /// The number of changes to the file seen so far, after looking once more. A look that
    /// fails counts as a change: a cache had better reread than trust rows it cannot vouch for.
    func generation() -> UInt64 {
        state.withLock { state in
            guard let connection = state.connection else { return state.generation }
            do {
                let version = try SQLiteStoreState.dataVersion(on: connection)
                if version != state.dataVersion {
                    state.dataVersion = version
                    state.generation += 1
                }
            } catch {
                state.generation += 1
            }
            return state.generation
        }
    }

    /// Takes the file as it is now as seen, right after the writer committed, unless someone
    /// else committed too: `writerDataVersion` (the writer's data version, read now on the store's
    /// queue) tells, because it changes for every commit but the writer's own. It is read after
    /// the monitor's, so a commit slipping in between the two is counted, not swallowed.
    func absorbOwnCommit(writerDataVersion: () throws -> Int64) {
        state.withLock { state in
            guard let connection = state.connection else { return }
            do {
                state.dataVersion = try SQLiteStoreState.dataVersion(on: connection)
                let writerVersion = try writerDataVersion()
                if writerVersion != state.writerDataVersion {
                    state.writerDataVersion = writerVersion
                    state.generation += 1
                }
            } catch {
                state.generation += 1
            }
        }
    }

    /// Closes the connection; `generation()` then stops looking.
    func close() {
        state.withLock { state in
            state.connection?.close()
            state.connection = nil
        }
    }
}
