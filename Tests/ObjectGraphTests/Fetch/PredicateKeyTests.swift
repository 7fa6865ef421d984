import Foundation
import Testing

@testable import ObjectGraph

/// Predicates built in code are the same predicates as their format strings.
@Suite("Predicates built in code")
struct PredicateKeyTests {
    @Test func codeAndFormatBuildEqualPredicates() throws {
        let age = PredicateKey("age"), name = PredicateKey("name")
        let pairs: [(FetchPredicate, String, [Any])] = [
            (age > 3, "age > 3", []),
            (age == nil, "age == nil", []),
            (age != 2.5, "age != 2.5", []),
            (age <= PredicateKey("minAge"), "age <= minAge", []),
            (age.in([1, 2, nil]), "age IN {1, 2, nil}", []),
            (age.between(1, and: 9), "age BETWEEN {1, 9}", []),
            (name.beginsWith("A", options: [.caseInsensitive, .diacriticInsensitive]), "name BEGINSWITH[cd] 'A'", []),
            (name.contains("x"), "name CONTAINS 'x'", []),
            (name.like("a*"), "name LIKE 'a*'", []),
            (name.matches("a.*", options: .caseInsensitive), "name MATCHES[c] 'a.*'", []),
            (name.equals("ann", options: .caseInsensitive), "name ==[c] 'ann'", []),
            (!(age > 3) || name == "Ann" && age < 9, "NOT age > 3 OR (name == 'Ann' AND age < 9)", []),
            (.any(PredicateKey("tags.name") == "x"), "ANY tags.name == 'x'", []),
            (.none(PredicateKey("books.@count") > 2), "NONE books.@count > 2", []),
            (PredicateKey("author.name") == "Ann", "author.name == %@", ["Ann"])
        ]
        for (built, format, arguments) in pairs {
            #expect(built == (try FetchPredicate(format: format, argumentArray: arguments)), "\(format)")
        }
    }

    @Test func unusableValuesFailTheFetchNotTheProgram() throws {
        let predicate = PredicateKey("age") > Double.nan
        let error = PredicateFixtures.error { _ = try predicate.bind(to: PredicateFixtures.person, in: PredicateFixtures.model) }
        #expect(error?.kind == .typeMismatch)
        #expect(
            error?.message
                == "the value compared with age is NaN, which no stored value can equal or be ordered against (stores refuse NaN)")
        let weird = PredicateKey("age") == NSObject()
        #expect(
            PredicateFixtures.error { _ = try weird.bind(to: PredicateFixtures.person, in: PredicateFixtures.model) }?.message.hasPrefix(
                "the value compared with age has type NSObject") == true)
    }

    @Test(arguments: StoreKind.allCases)
    func codePredicatesFetch(kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.withNewContext { (context: ManagedObjectContext) throws in
            try context.insertPerson("Ann", age: 30)
            try context.insertPerson("Bob", age: 40)
            try context.save()
            let found = try context.fetch(
                FetchRequest<ManagedObject>(
                    entityName: "Person",
                    predicate: PredicateKey("age") > 35 || PredicateKey("name").beginsWith("a", options: .caseInsensitive)))
            #expect(found.count == 2)
            #expect(
                try context.count(
                    for: FetchRequest<ManagedObject>(entityName: "Person", predicate: PredicateKey("age").between(31, and: 45))) == 1)
        }
    }
}
