import Foundation

// The typed counterparts of `insertPerson(_:)` and `PersonRow.init(_: ManagedObject)`: the same
// work through the generated class's properties (slot reads and writes, no keys).
extension Person {
    /// Sets every attribute from `row` (W1, typed).
    func fill(from row: PersonRow) {
        id = row.id
        name = row.name
        email = row.email
        age = row.age
        score = row.score
        createdAt = Date(timeIntervalSinceReferenceDate: row.createdAt)
        bio = row.bio
    }
}

extension PersonRow {
    /// Reads every attribute of `person` through its typed properties (W2, typed).
    init(_ person: Person) {
        self.init(id: person.id, name: person.name, email: person.email, age: person.age, score: person.score,
                  createdAt: person.createdAt.timeIntervalSinceReferenceDate, bio: person.bio)
    }
}
