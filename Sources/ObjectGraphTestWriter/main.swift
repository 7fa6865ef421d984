// A second process for the tests of several processes sharing one store — a SQLite file (change
// detection, busy handling) or a PostgreSQL database (remote changes, conflicts) — and for the
// tests of the concurrency debug switch (which stops the process it catches). Tests cannot fork
// a Swift process that keeps running ObjectGraph, and re-running the test binary for one helper
// is fragile, so they run this small program instead. It is not a product and not meant for anything else.
//
//     ObjectGraphTestWriter <store.sqlite> <model.json> <command>...
//     ObjectGraphTestWriter <postgres://user:password@host:port/database> <model.json> <command>...
//     ObjectGraphTestWriter corpus <directory>    writes the corpus of damaged stores (CorruptionCorpus.swift)
//
// Commands, run in order, each saved on its own:
//     insert <code> <title>      inserts an Item
//     retitle <code> <title>     changes the title of the Item with that code
//     fetch-off-queue <code> -   fetches the Item with that code outside the context's queue
//     read-off-queue <code> -    fetches it on the queue, then reads its title outside
//     count <entity> -           prints how many objects of the entity the store holds
//     save-loop <count> -        saves an Item and a Person named Ln, n = 0, 1, …, one save
//                                each, printing "saved n" once each save returned
//     hold-until <path> -        prints "holding", then keeps the store open until <path> exists
//
// With OBJECTGRAPH_TEST_WRITER_START_AT=<seconds since 1970> it waits until that instant before
// opening the store, so several writers started by one test open it at the same moment. With
// OBJECTGRAPH_TEST_WRITER_READ_ONLY=1 it opens the store read-only; with
// OBJECTGRAPH_TEST_WRITER_HISTORY=1 it records persistent history, as author "writer".
import Foundation
import ObjectGraph
import ObjectGraphPostgres

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func run(_ arguments: [String]) throws {
    if arguments.first == "corpus", arguments.count == 2 {
        return try CorruptionCorpus.write(to: URL(fileURLWithPath: arguments[1]))
    }
    guard arguments.count >= 3 else {
        throw UsageError("usage: ObjectGraphTestWriter <store.sqlite or postgres:// URL> <model.json> <command>...")
    }
    let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[1]))
    if let startAt = ProcessInfo.processInfo.environment["OBJECTGRAPH_TEST_WRITER_START_AT"].flatMap(Double.init) {
        Thread.sleep(until: Date(timeIntervalSince1970: startAt))
    }
    let container = PersistentContainer(name: "TestWriter", managedObjectModel: model)
    var description =
        if arguments[0].hasPrefix("postgres"), let url = URL(string: arguments[0]) {
            PersistentStoreDescription(postgresURL: url)
        } else {
            PersistentStoreDescription(url: URL(fileURLWithPath: arguments[0]))
        }
    description.isReadOnly = ProcessInfo.processInfo.environment["OBJECTGRAPH_TEST_WRITER_READ_ONLY"] == "1"
    description.recordsPersistentHistory = ProcessInfo.processInfo.environment["OBJECTGRAPH_TEST_WRITER_HISTORY"] == "1"
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    context.name = "TestWriter"
    context.transactionAuthor = "writer"
    var commands = arguments.dropFirst(2)[...]
    while let command = commands.popFirst() {
        guard let code = commands.popFirst(), let title = commands.popFirst() else {
            throw UsageError("\(command) needs a code and a title")
        }
        let request = FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "code == %@", code))
        // Misuse on purpose: with OBJECTGRAPH_CONCURRENCY_DEBUG=1 the process stops here.
        switch command {
        case "fetch-off-queue":
            _ = try context.fetch(request)
            continue
        case "save-loop":
            for number in 0..<(Int(code) ?? 0) {
                try context.performAndWait {
                    let item = try context.insertNewObject(forEntityName: "Item")
                    try item.setValue("L\(number)", forKey: "code")
                    let person = try context.insertNewObject(forEntityName: "Person")
                    try person.setValue("L\(number)", forKey: "name")
                    try context.save()
                }
                // Unbuffered, so what was printed is what returned, even after a kill.
                FileHandle.standardOutput.write(Data("saved \(number)\n".utf8))
            }
            continue
        case "hold-until":
            FileHandle.standardOutput.write(Data("holding\n".utf8))
            while !FileManager.default.fileExists(atPath: code) { Thread.sleep(forTimeInterval: 0.01) }
            continue
        case "count":
            print(try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: code)) })
            continue
        case "read-off-queue":
            let item = try context.performAndWait { try context.fetch(request).first }
            print(try item?.value(forKey: "title", as: String.self) ?? "nil")
            continue
        default:
            break
        }
        try context.performAndWait {
            switch command {
            case "insert":
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(code, forKey: "code")
                try item.setValue(title, forKey: "title")
            case "retitle":
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
