// The end-to-end demo: a small library kept in a SQLite file. It creates authors, books,
// members and loans, saves them, reopens the store, fetches with predicates and sorting,
// changes and deletes objects, and shows what happens when a save is refused.
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

// 1. Create and save.
var container = try openContainer()
print("\n1. Opened a new store at \(storeURL.path)")
var context = container.viewContext

let authors: [(String, String, Double)] = [
    ("Ursula K. Le Guin", "1929-10-21", 4.8), ("Octavia E. Butler", "1947-06-22", 4.7), ("Ted Chiang", "1967-10-20", 4.6),
]
var authorIDs: [String: UUID] = [:]
for (name, born, rating) in authors {
    let author = try context.insertNewObject(forEntityName: "Author")
    let id = UUID()
    authorIDs[name] = id
    try author.setValue(id, forKey: "id")
    try author.setValue(name, forKey: "name")
    try author.setValue(date(born), forKey: "born")
    try author.setValue(rating, forKey: "rating")
}

let books: [(String, String, String, Int32, Decimal)] = [
    ("A Wizard of Earthsea", "9780547773742", "Ursula K. Le Guin", 183, 9.99),
    ("The Left Hand of Darkness", "9780441478125", "Ursula K. Le Guin", 304, 12.50),
    ("The Dispossessed", "9780061054884", "Ursula K. Le Guin", 387, 14.99),
    ("Kindred", "9780807083697", "Octavia E. Butler", 264, 11.00),
    ("Parable of the Sower", "9781538732182", "Octavia E. Butler", 345, 13.25),
    ("Stories of Your Life and Others", "9781101972120", "Ted Chiang", 281, 16.00),
]
var bookIDs: [String: UUID] = [:]
for (title, isbn, author, pages, price) in books {
    let book = try context.insertNewObject(forEntityName: "Book")
    let id = UUID()
    bookIDs[title] = id
    try book.setValue(id, forKey: "id")
    try book.setValue(title, forKey: "title")
    try book.setValue(isbn, forKey: "isbn")
    try book.setValue(authorIDs[author], forKey: "authorID")
    try book.setValue(pages, forKey: "pageCount")
    try book.setValue(price, forKey: "price")
    try book.setValue(["tags": ["fiction", "classic"]], forKey: "metadata")
}

let ada = try context.insertNewObject(forEntityName: "Member")
let adaID = UUID()
try ada.setValue(adaID, forKey: "id")
try ada.setValue("Ada", forKey: "name")
try ada.setValue("ada@example.org", forKey: "email")
let loanTitles = ["Kindred", "The Dispossessed"]
for title in loanTitles {
    let loan = try context.insertNewObject(forEntityName: "Loan")
    try loan.setValue(UUID(), forKey: "id")
    try loan.setValue(bookIDs[title], forKey: "bookID")
    try loan.setValue(adaID, forKey: "memberID")
    try loan.setValue(date("2026-11-01"), forKey: "borrowedAt")
    try loan.setValue(date("2026-11-22"), forKey: "dueAt")
}
print("   inserted \(context.insertedObjects.count) objects; first ID is temporary: \(ada.objectID.isTemporaryID)")
try context.save()
print("   saved in one transaction; Ada's ID is now \(ada.objectID)")
let adaURI = ada.objectID.uriRepresentation()

// 2. Reopen and fetch.
container.persistentStoreCoordinator.removePersistentStore()
container = try openContainer()
context = container.viewContext
print("\n2. Reopened the store")
var longBooks = FetchRequest<ManagedObject>(entityName: "Book")
longBooks.predicate = try FetchPredicate(format: "pageCount > %d AND price < %@", 250, Decimal(15))
longBooks.sortDescriptors = [FetchSortDescriptor(key: "pageCount", ascending: false)]
for book in try context.fetch(longBooks) {
    let title = try book.value(forKey: "title", as: String.self) ?? ""
    let pages = try book.value(forKey: "pageCount", as: Int.self) ?? 0
    let price = try book.value(forKey: "price", as: Decimal.self) ?? 0
    print("   \(title): \(pages) pages, $\(price)")
}
print("   books: \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Book"))), loans: \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Loan")))")

// 3. Change: Ada returns Kindred; a price goes up. The URI from before the reopen still names her.
print("\n3. Changing objects")
guard let adaObjectID = container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: adaURI) else {
    fatalError("the URI of a saved object always resolves")
}
let member = try context.existingObject(with: adaObjectID)
print("   resolved \(adaURI) to \(try member.value(forKey: "name", as: String.self) ?? "?")")
var kindredLoan = FetchRequest<ManagedObject>(entityName: "Loan")
kindredLoan.predicate = try FetchPredicate(format: "bookID == %@ AND returnedAt == nil", bookIDs["Kindred"]!)
if let loan = try context.fetch(kindredLoan).first {
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

// 4. Delete returned loans.
print("\n4. Deleting returned loans")
var returned = FetchRequest<ManagedObject>(entityName: "Loan")
returned.predicate = try FetchPredicate(format: "returnedAt != nil")
for loan in try context.fetch(returned) { context.delete(loan) }
print("   deleting \(context.deletedObjects.count); loans visible before save (pending changes count): \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Loan")))")
try context.save()

// 5. Bad input is refused with a readable error, and nothing is lost.
print("\n5. Refused saves")
let badBook = try context.insertNewObject(forEntityName: "Book")
try badBook.setValue(UUID(), forKey: "id")
try badBook.setValue("", forKey: "title")
try badBook.setValue("12345", forKey: "isbn")
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
let twin = try context.insertNewObject(forEntityName: "Member")
try twin.setValue(UUID(), forKey: "id")
try twin.setValue("Ada Again", forKey: "name")
try twin.setValue("ada@example.org", forKey: "email")
do {
    try context.save()
} catch {
    print("   \(error)")
}
context.rollback()

// 6. A background context sees everything that was saved.
print("\n6. Background context")
let summary = try await container.performBackgroundTask { background in
    let members = try background.count(for: FetchRequest<ManagedObject>(entityName: "Member"))
    let loans = try background.count(for: FetchRequest<ManagedObject>(entityName: "Loan"))
    let books = try background.count(for: FetchRequest<ManagedObject>(entityName: "Book"))
    return "\(books) books, \(members) member, \(loans) open loan"
}
print("   \(summary)")
container.persistentStoreCoordinator.removePersistentStore()
print("\nDone. Inspect the file with: sqlite3 \(storeURL.path) .tables")
