@testable import ObjectGraph

extension TestStore {
    /// Saves the people the fetch tests query, in this order (so primary keys follow it).
    /// Two share an age and two share a city, so multi-key sorts and tie-breaks show.
    func savePeople() throws {
        try withNewContext { context in
            try context.insertPerson("Dora", age: 40, city: "Oslo")
            try context.insertPerson("alice", age: 30, city: "Bergen")
            try context.insertPerson("Bob", age: 25, city: nil)
            try context.insertPerson("Émile", age: nil, city: "Oslo")
            try context.insertPerson("Carl", age: 30, city: nil)
            try context.insertPerson("Zoe", age: 18, city: "Paris")
            try context.save()
        }
    }
}
