import ArgumentParser
import Foundation
import ObjectGraph
import ObjectGraphPostgres

/// `objectgraph copy SOURCE DESTINATION [--model MODEL]`: copies every object of a store into a
/// new, empty store of any kind, keeping keys, relationships and the store identifier.
struct CopyCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy every object of a store into a new, empty store.",
        discussion: """
            SOURCE and DESTINATION are store files or postgres://user:password@host:port/database \
            URLs; a copy may go from SQLite to PostgreSQL, back, or between files. Every object \
            keeps its primary key and the copy keeps the source's store identifier, so object IDs \
            and URIs name the same objects in both; relationships and the order of ordered ones \
            are copied. The model is the one the source keeps, or MODEL (which must be the \
            source's version: the source is never migrated or changed). DESTINATION must be \
            empty: a new file, an empty database, or a store without objects. The objects are \
            read and written 20,000 at a time, all in one transaction: a copy that fails \
            part-way leaves the destination empty. On a terminal, a progress line shows how far \
            the copy is.
            """
    )

    @Argument(help: "The store to copy: a file or a postgres:// URL.")
    var source: String

    @Argument(help: "The new store: a file or a postgres:// URL of an empty database.")
    var destination: String

    @Option(help: "The model file, or a folder of model versions (default: the model the source keeps).", completion: .file())
    var model: String?

    func output() -> CommandOutput {
        do {
            let from = try Self.location(source), to = try Self.location(destination)
            let storeModel = try model.map(Self.loadModel) ?? Self.metadata(of: from).model
            let terminal = isatty(STDERR_FILENO) != 0
            let outcome = try StoreCopy.copy(
                from: Self.description(of: from), to: Self.description(of: to), model: storeModel,
                progress: { step in
                    // A progress line for a person watching, rewritten in place; none in a log or a pipe.
                    if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K\(step)".utf8)) }
                })
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let identifier =
                outcome.keptIdentifier
                ? "" : " (the destination was an existing empty store: it keeps its own identifier, so object URIs differ)"
            return CommandOutput(
                standardOutput:
                    "Copied \(outcome.objects) objects of '\(storeModel.name)' version \(storeModel.version) from \(Self.shown(from)) to \(Self.shown(to))\(identifier).\n"
            )
        } catch {
            return CommandOutput(standardError: "\(error)\n", exitCode: .failure)
        }
    }

    /// A store's URL: a `postgres://` (or `postgresql://`) URL as given, anything else a file path.
    static func location(_ argument: String) throws -> URL {
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            guard let url = URL(string: argument) else { throw ValidationError("\(argument) is not a valid postgres:// URL") }
            return url
        }
        return argument.hasPrefix("file://") ? URL(string: argument)! : URL(fileURLWithPath: argument)
    }

    static func isPostgreSQL(_ url: URL) -> Bool { !url.isFileURL }

    static func description(of url: URL) -> PersistentStoreDescription {
        isPostgreSQL(url) ? PersistentStoreDescription(postgresURL: url) : PersistentStoreDescription(url: url)
    }

    static func metadata(of url: URL) throws -> StoreMetadata {
        isPostgreSQL(url)
            ? try PersistentStoreCoordinator.metadataForPersistentStore(postgresURL: url)
            : try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
    }

    /// A model file, or the newest version in a folder of versions.
    static func loadModel(_ path: String) throws -> ManagedObjectModel {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? try ManagedObjectModel(versionsIn: url) : try ManagedObjectModel(contentsOf: url)
    }

    /// A location for messages: a file's path, a database URL without its password.
    static func shown(_ url: URL) -> String {
        guard isPostgreSQL(url), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        components.password = nil
        return components.string ?? url.absoluteString
    }
}
