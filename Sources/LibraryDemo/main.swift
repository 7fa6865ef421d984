// The end-to-end demo: a small library kept in a SQLite file. It creates authors, books,
// members and loans linked by relationships, saves them, reopens the store, fetches with
// predicates and sorting, walks the object graph, changes and deletes objects, and shows the
// delete rules (deny, cascade) and what happens when a save is refused, then several contexts
// and a live list that follows their saves.
import Foundation
import ObjectGraph

let storeURL = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "library-demo.sqlite")
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
}

let model = try ManagedObjectModel(named: "Library", in: .module)
print("Model \(model.name) v\(model.version): \(model.entities.map(\.name).joined(separator: ", "))")
print("Version hash \(model.versionHash)")

func openContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: "Library", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
    try container.loadPersistentStores()
    return container
}

func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T00:00:00Z")! }

/// A string attribute, or "?" when it is nil.
func text(_ object: ManagedObject?, _ key: String) throws -> String {
    try object?.value(forKey: key, as: String.self) ?? "?"
}

/// The titles of `books`, sorted.
func titles(_ books: Set<ManagedObject>) throws -> String {
    try books.map { try text($0, "title") }.sorted().joined(separator: ", ")
}

func count(_ entityName: String, in context: ManagedObjectContext) throws -> Int {
    try context.count(for: FetchRequest<ManagedObject>(entityName: entityName))
}

// 1. Create a graph and save it.
var container = try openContainer()
print("\n1. Opened a new store at \(storeURL.path)")
var context = container.viewContext

let authorRows: [(String, String, Double)] = [
    ("Ursula K. Le Guin", "1929-10-21", 4.8), ("Octavia E. Butler", "1947-06-22", 4.7), ("Ted Chiang", "1967-10-20", 4.6)
]
var authors: [String: ManagedObject] = [:]
for (name, born, rating) in authorRows {
    let author = try context.insertNewObject(forEntityName: "Author")
    authors[name] = author
    try author.setValue(UUID(), forKey: "id")
    try author.setValue(name, forKey: "name")
    try author.setValue(date(born), forKey: "born")
    try author.setValue(rating, forKey: "rating")
}

let bookRows: [(String, String, String, Int32, Decimal)] = [
    ("A Wizard of Earthsea", "9780547773742", "Ursula K. Le Guin", 183, 9.99),
    ("The Left Hand of Darkness", "9780441478125", "Ursula K. Le Guin", 304, 12.50),
    ("The Dispossessed", "9780061054884", "Ursula K. Le Guin", 387, 14.99),
    ("Kindred", "9780807083697", "Octavia E. Butler", 264, 11.00),
    ("Parable of the Sower", "9781538732182", "Octavia E. Butler", 345, 13.25),
    ("Stories of Your Life and Others", "9781101972120", "Ted Chiang", 281, 16.00)
]
var books: [String: ManagedObject] = [:]
for (title, isbn, author, pages, price) in bookRows {
    let book = try context.insertNewObject(forEntityName: "Book")
    books[title] = book
    try book.setValue(UUID(), forKey: "id")
    try book.setValue(title, forKey: "title")
    try book.setValue(isbn, forKey: "isbn")
    try book.setValue(authors[author], forKey: "author")  // a to-one relationship
    try book.setValue(pages, forKey: "pageCount")
    try book.setValue(price, forKey: "price")
    try book.setValue(["tags": ["fiction", "classic"]], forKey: "metadata")
}
// The inverse is kept up to date at once, before any save.
print("   Le Guin's books: \(try titles(authors["Ursula K. Le Guin"]!.relatedObjects(forKey: "books")))")

func insertMember(_ name: String, _ email: String, in context: ManagedObjectContext) throws -> ManagedObject {
    let member = try context.insertNewObject(forEntityName: "Member")
    try member.setValue(UUID(), forKey: "id")
    try member.setValue(name, forKey: "name")
    try member.setValue(email, forKey: "email")
    return member
}

func lend(_ book: ManagedObject?, to member: ManagedObject, in context: ManagedObjectContext) throws {
    let loan = try context.insertNewObject(forEntityName: "Loan")
    try loan.setValue(UUID(), forKey: "id")
    try loan.setValue(book, forKey: "book")
    try loan.setValue(member, forKey: "member")
    try loan.setValue(date("2026-11-01"), forKey: "borrowedAt")
    try loan.setValue(date("2026-11-22"), forKey: "dueAt")
}

let ada = try insertMember("Ada", "ada@example.org", in: context)
let grace = try insertMember("Grace", "grace@example.org", in: context)
try lend(books["Kindred"], to: ada, in: context)
try lend(books["The Dispossessed"], to: ada, in: context)
try lend(books["A Wizard of Earthsea"], to: grace, in: context)
try lend(books["Stories of Your Life and Others"], to: grace, in: context)
print("   inserted \(context.insertedObjects.count) objects; first ID is temporary: \(ada.objectID.isTemporaryID)")
try context.save()
print("   saved in one transaction; Ada's ID is now \(ada.objectID)")
let adaURI = ada.objectID.uriRepresentation()

// 2. Reopen, fetch, and read relationships from the file.
container.persistentStoreCoordinator.removePersistentStore()
container = try openContainer()
context = container.viewContext
print("\n2. Reopened the store")
var longBooks = FetchRequest<ManagedObject>(entityName: "Book")
longBooks.predicate = try FetchPredicate(format: "pageCount > %d AND price < %@", 250, Decimal(15))
longBooks.sortDescriptors = [FetchSortDescriptor(key: "pageCount", ascending: false)]
for book in try context.fetch(longBooks) {
    let pages = try book.value(forKey: "pageCount", as: Int.self) ?? 0
    let price = try book.value(forKey: "price", as: Decimal.self) ?? 0
    print("   \(try text(book, "title")) by \(try text(book.relatedObject(forKey: "author"), "name")): \(pages) pages, $\(price)")
}
var byName = FetchRequest<ManagedObject>(entityName: "Author")
byName.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
for author in try context.fetch(byName) {
    print("   \(try text(author, "name")) wrote \(try titles(author.relatedObjects(forKey: "books")))")
}
print("   books: \(try count("Book", in: context)), loans: \(try count("Loan", in: context))")

// 3. Walk the graph from Ada (found again by the URI from before the reopen); she returns
//    Kindred, and a price goes up.
print("\n3. Walking the graph and changing objects")
guard let adaObjectID = container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: adaURI) else {
    fatalError("the URI of a saved object always resolves")
}
let member = try context.existingObject(with: adaObjectID)
print("   resolved \(adaURI) to \(try text(member, "name")), who has borrowed:")
var kindredLoan: ManagedObject?
let adaLoans = try member.relatedObjects(forKey: "loans").map { ($0, try $0.relatedObject(forKey: "book")) }
for (loan, book) in try adaLoans.sorted(by: { try text($0.1, "title") < text($1.1, "title") }) {
    print("     \(try text(book, "title")) by \(try text(book?.relatedObject(forKey: "author"), "name"))")
    if try text(book, "title") == "Kindred" { kindredLoan = loan }
}
if let loan = kindredLoan {
    try loan.setValue(date("2026-11-20"), forKey: "returnedAt")
    print("   loan changes before save: \(loan.changedValues().keys.sorted())")
}
var kindred = FetchRequest<ManagedObject>(entityName: "Book")
kindred.predicate = try FetchPredicate(format: "title == %@", "Kindred")
if let book = try context.fetch(kindred).first {
    try book.setValue(Decimal(string: "12.75")!, forKey: "price")
}
print("   updated objects: \(context.updatedObjects.count)")
try context.save()

// 4. Delete returned loans; their book and member forget them (nullify).
print("\n4. Deleting returned loans")
var returned = FetchRequest<ManagedObject>(entityName: "Loan")
returned.predicate = try FetchPredicate(format: "returnedAt != nil")
for loan in try context.fetch(returned) { context.delete(loan) }
// Delete rules run when the event ends, as in Core Data: at the end of the main queue's turn, or
// here, where the script's main flow holds the queue, when it says so.
context.processPendingChanges()
print("   deleting \(context.deletedObjects.count); loans visible before save (pending changes count): \(try count("Loan", in: context))")
print("   Ada's loans now: \(try member.relatedObjects(forKey: "loans").count)")
try context.save()

// 5. Delete rules: an author with books cannot be deleted (deny); deleting a member deletes
//    their loans (cascade).
print("\n5. Delete rules")
var chiang = FetchRequest<ManagedObject>(entityName: "Author")
chiang.predicate = try FetchPredicate(format: "name == %@", "Ted Chiang")
let ted = try context.fetch(chiang)[0]
context.delete(ted)
do {
    try context.save()
} catch let error as ObjectGraphError {
    print("   deny: " + error.message.replacingOccurrences(of: "\n", with: "\n   "))
}
context.rollback()
print("   after rollback: \(try count("Author", in: context)) authors; Ted Chiang wrote \(try titles(ted.relatedObjects(forKey: "books")))")

var graceRequest = FetchRequest<ManagedObject>(entityName: "Member")
graceRequest.predicate = try FetchPredicate(format: "name == %@", "Grace")
let graceAgain = try context.fetch(graceRequest)[0]
let loansBefore = try count("Loan", in: context)
context.delete(graceAgain)
context.processPendingChanges()
let cascaded = context.deletedObjects.filter { $0.entity.name == "Loan" }.count
print("   cascade: deleting Grace deletes her \(cascaded) loans too")
try context.save()
print("   loans: \(loansBefore) before, \(try count("Loan", in: context)) after; books: \(try count("Book", in: context))")

// 6. Bad input is refused with a readable error, and nothing is lost.
print("\n6. Refused saves")
let badBook = try context.insertNewObject(forEntityName: "Book")
try badBook.setValue(UUID(), forKey: "id")
try badBook.setValue("", forKey: "title")
try badBook.setValue("12345", forKey: "isbn")  // and no author
do {
    try context.save()
} catch let error as ObjectGraphError {
    print("   " + error.description.replacingOccurrences(of: "\n", with: "\n   "))
}
context.rollback()
do {
    try badBook.setValue("a lot", forKey: "pageCount")
} catch {
    print("   \(error)")
}
_ = try insertMember("Ada Again", "ada@example.org", in: context)
do {
    try context.save()
} catch {
    print("   \(error)")
}
context.rollback()

// 7. A background context sees everything that was saved.
print("\n7. Background context")
let summary = try await container.performBackgroundTask { background in
    let books = try count("Book", in: background)
    let members = try count("Member", in: background)
    let loans = try count("Loan", in: background)
    return "\(books) books, \(members) member\(members == 1 ? "" : "s"), \(loans) open loan\(loans == 1 ? "" : "s")"
}
print("   \(summary)")

// 8. Several contexts: a background save merged into the view context, a child context used as a
//    scratchpad, and a lost update caught by optimistic locking, then resolved by a merge policy.
print("\n8. Several contexts")
context.automaticallyMergesChangesFromParent = true
var firstBook = FetchRequest<ManagedObject>(entityName: "Book")
firstBook.sortDescriptors = [FetchSortDescriptor(key: "title")]
firstBook.fetchLimit = 1
let shown = try context.fetch(firstBook)[0]
let bookID = shown.objectID
try await container.performBackgroundTask { background in
    try background.existingObject(with: bookID).setValue(Decimal(string: "9.99")!, forKey: "price")
    try background.save()
}
// The merge runs on the view context's queue, at the latest before its next use.
_ = try context.existingObject(with: bookID)
print("   a background context changed the price; the view context shows \(try shown.value(forKey: "price", as: Decimal.self) ?? 0)")

let oldTitle = try shown.value(forKey: "title", as: String.self) ?? ""
let editor = context.newChildContext()
try editor.performAndWait {
    try editor.existingObject(with: bookID).setValue(oldTitle + " (2nd ed.)", forKey: "title")
    try editor.save()
}
let storedTitle = try await container.performBackgroundTask { background in
    try background.existingObject(with: bookID).value(forKey: "title", as: String.self) ?? ""
}
print(
    "   a child context's save reached the view context (\"\(try shown.value(forKey: "title", as: String.self) ?? "")\"), not the store (\"\(storedTitle)\")"
)
try context.save()

let other = container.newBackgroundContext()
other.name = "other"
try other.performAndWait { try other.existingObject(with: bookID).setValue("Edited elsewhere", forKey: "summary") }
try await container.performBackgroundTask { background in
    try background.existingObject(with: bookID).setValue(oldTitle + " (3rd ed.)", forKey: "title")
    try background.save()
}
try other.performAndWait {
    do {
        try other.save()
    } catch let error as ObjectGraphError where error.kind == .mergeConflict {
        print("   " + error.message.replacingOccurrences(of: "\n", with: "\n   "))
    }
    other.mergePolicy = .mergeByPropertyObjectTrump
    try other.save()
    let book = try other.existingObject(with: bookID)
    print(
        "   with .mergeByPropertyObjectTrump: title \"\(try book.value(forKey: "title", as: String.self) ?? "")\", summary \"\(try book.value(forKey: "summary", as: String.self) ?? "")\""
    )
}

// 9. A live list: a fetched results controller keeps the view context's books, sectioned by
//    author, current as other contexts save, and tells its delegate what changed.
print("\n9. A live list")
final class ChangePrinter: FetchedResultsControllerDelegate {
    func controller(
        _ controller: FetchedResultsController<ManagedObject>, didChange object: ManagedObject, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let place = newIndexPath ?? indexPath
        print("   \(type): \((try? text(object, "title")) ?? "?") at section \(place?.section ?? 0), row \(place?.item ?? 0)")
    }
}
var shelf = FetchRequest<ManagedObject>(entityName: "Book")
shelf.sortDescriptors = [FetchSortDescriptor(key: "author.name"), FetchSortDescriptor(key: "title")]
let live = FetchedResultsController(fetchRequest: shelf, managedObjectContext: context, sectionNameKeyPath: "author.name")
let printer = ChangePrinter()
live.delegate = printer
try live.performFetch()
print("   " + (live.sections ?? []).map { "\($0.name): \($0.numberOfObjects)" }.joined(separator: "; "))
try await container.performBackgroundTask { background in
    let chiang = try background.fetch(
        FetchRequest<ManagedObject>(entityName: "Author", predicate: FetchPredicate(format: "name == %@", "Ted Chiang")))[0]
    let book = try background.insertNewObject(forEntityName: "Book")
    try book.setValue(UUID(), forKey: "id")
    try book.setValue("Exhalation", forKey: "title")
    try book.setValue("9781101947883", forKey: "isbn")
    try book.setValue(352, forKey: "pageCount")
    try book.setValue(chiang, forKey: "author")
    try background.save()
}
let tedChiang = try context.fetch(
    FetchRequest<ManagedObject>(entityName: "Author", predicate: FetchPredicate(format: "name == 'Ted Chiang'")))[0]
print(
    "   Ted Chiang: \(try tedChiang.value(forKeyPath: "books.@count") ?? 0) books, \(try tedChiang.value(forKeyPath: "books.@sum.pageCount") ?? 0) pages"
)

container.persistentStoreCoordinator.removePersistentStore()
print("\nDone. Inspect the file with: sqlite3 \(storeURL.path) .tables")
