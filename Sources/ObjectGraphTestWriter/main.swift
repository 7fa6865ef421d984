// A second process for the tests of several processes sharing one store file (the SQLite
// store's change detection and busy handling). Tests cannot fork a Swift process that keeps
// running ObjectGraph, and re-running the test binary for one helper is fragile, so they run
// this small program instead. It is not a product and not meant for anything else.
//
//     ObjectGraphTestWriter <store.sqlite> <model.json> <command>...
//
// Commands, run in order, each saved on its own:
//     insert <code> <title>      inserts an Item
//     retitle <code> <title>     changes the title of the Item with that code
import Foundation
import ObjectGraph

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func run(_ arguments: [String]) throws {
    guard arguments.count >= 3 else {
        throw UsageError("usage: ObjectGraphTestWriter <store.sqlite> <model.json> <command>...")
    }
    let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[1]))
    let container = PersistentContainer(name: "TestWriter", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: arguments[0]))]
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    var commands = arguments.dropFirst(2)[...]
    while let command = commands.popFirst() {
        guard let code = commands.popFirst(), let title = commands.popFirst() else {
            throw UsageError("\(command) needs a code and a title")
        }
        try context.performAndWait {
            switch command {
            case "insert":
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(code, forKey: "code")
                try item.setValue(title, forKey: "title")
            case "retitle":
                let request = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "code == %@", code))
                guard let item = try context.fetch(request).first else {
                    throw UsageError("no Item with code \(code)")
                }
                try item.setValue(title, forKey: "title")
            default:
                throw UsageError("unknown command \(command)")
            }
            try context.save()
        }
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("ObjectGraphTestWriter: \(error)\n".utf8))
    exit(1)
}
