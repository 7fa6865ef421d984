import Foundation
import Testing

@testable import ObjectGraph

@Suite("Predicate binding")
struct PredicateBindingTests {
    private func bindError(_ format: String, _ arguments: any Sendable...) -> ObjectGraphError? {
        PredicateFixtures.error {
            _ = try FetchPredicate(format: format, argumentArray: arguments).bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        }
    }

    @Test func unknownKeySuggestsTheClosestAttribute() {
        let error = bindError("nam == 'x'")
        #expect(error?.kind == .unknownKey)
        #expect(error?.key == "nam")
        #expect(error?.entityName == "Person")
        #expect(error?.message == "Person has no attribute named 'nam'; did you mean 'name'?")
        #expect(bindError("%K == 1", "agee")?.message == "Person has no attribute named 'agee'; did you mean 'age'?")
        #expect(
            bindError("zzzzzzzz == 1")?.message.hasPrefix("Person has no attribute named 'zzzzzzzz'; its attributes are name, age") == true)
        #expect(bindError("name == 'a' OR nope IN {1}")?.kind == .unknownKey)
    }

    @Test func keyPathsFollowToOneRelationshipsAndAreChecked() throws {
        // Person.author is a to-one relationship to Person.
        for format in ["author.name == 'x'", "author.author.age > 3", "author == nil", "author.name CONTAINS[c] 'a'"] {
            _ = try FetchPredicate(format: format).bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        }
        let through = bindError("name.x == 1")
        #expect(through?.kind == .unknownKey)
        #expect(through?.message == "Person: the key path 'name.x' goes through Person.name, which is not a relationship")
        #expect(bindError("author.nam == 'x'")?.message == "Person has no attribute named 'nam'; did you mean 'name'?")
        #expect(
            bindError("author.age == 'old'")?.message == "Person.age is integer16 but the predicate compares it with the string \"old\"")
        #expect(
            bindError("author > nil")?.message
                == "Person.author is a to-one relationship; it can only be compared with == or != (or IN) to an object, an object ID or nil, not with >"
        )
        #expect(
            bindError("author == 3")?.message
                == "Person.author is a to-one relationship to Person; compare it with an object, an object ID or nil, not the integer 3")
        #expect(bindError("author CONTAINS 'a'")?.kind == .typeMismatch)
        let sql = try FetchPredicate(format: "author.name == %@", "x").bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
            .sqlFragment().sql
        #expect(sql == #"(SELECT "_hop0_0"."name" FROM "Person" AS "_hop0_0" WHERE "_hop0_0"."_pk" = "Person"."author") IS ?"#)
    }

    @Test func transientAttributesAreRefused() {
        let error = bindError("nickname == 'x'")
        #expect(error?.kind == .unknownKey)
        #expect(error?.message == "Person.nickname is transient: transient attributes are not stored, so a fetch predicate cannot use them")
    }

    @Test func typeMismatchNamesEntityKeyTypeAndValue() {
        let error = bindError("age == 'old'")
        #expect(error?.kind == .typeMismatch)
        #expect(error?.key == "age")
        #expect(error?.message == "Person.age is integer16 but the predicate compares it with the string \"old\"")
        #expect(bindError("'old' < age")?.message == "Person.age is integer16 but the predicate compares it with the string \"old\"")
        #expect(bindError("name == 3")?.message == "Person.name is string but the predicate compares it with the integer 3")
        #expect(
            bindError("flag == 2")?.message
                == "Person.flag is boolean but the predicate compares it with the integer 2; a boolean equals YES or NO (or 1 or 0)")
        #expect(bindError("score == YES")?.message == "Person.score is double but the predicate compares it with the Boolean YES")
        #expect(bindError("age == %@", Decimal(1))?.message == "Person.age is integer16 but the predicate compares it with the decimal 1")
        #expect(bindError("birthday == 3")?.kind == .typeMismatch)
        #expect(bindError("photo == 'x'")?.kind == .typeMismatch)
        #expect(
            bindError("id == 'not-a-uuid'")?.message
                == "Person.id is uuid but the predicate compares it with the string \"not-a-uuid\", which is not a UUID")
        #expect(bindError("homepage == 3")?.kind == .typeMismatch)
        #expect(
            bindError("extra == 'x'")?.message
                == "Person.extra is json but the predicate compares it with the string \"x\"; json attributes can only be compared with nil"
        )
        #expect(bindError("age IN {1, 'two'}")?.message == "Person.age is integer16 but the predicate compares it with the string \"two\"")
        #expect(bindError("price == %@", 1e300)?.message.hasSuffix(", which a decimal cannot represent") == true)
        #expect(bindError("price == %@", Double.infinity)?.kind == .typeMismatch)
        #expect(bindError("score BETWEEN {1, 'x'}")?.kind == .typeMismatch)
    }

    @Test func acceptedConstants() throws {
        let uuid = UUID()
        let accepted: [(String, [any Sendable])] = [
            ("age == 3", []), ("age == 2.5", []), ("age < 1e10", []), ("big == 99999999999999999999", []),
            ("score == 3", []), ("weight > 2.5", []), ("price == 3", []), ("price == 2.5", []),
            ("price == %@", [Decimal(string: "1.25")!]), ("price < %@", [Decimal(2)]), ("price > 1", []),
            ("name == 'x'", []), ("flag == YES", []), ("flag != %@", [false]),
            ("birthday == %@", [Date()]), ("birthday BETWEEN %@", [[Date(), Date()]]), ("photo == %@", [Data()]),
            ("id == %@", [uuid]), ("id == %@", [uuid.uuidString]), ("id IN {%@, nil}", [uuid]),
            ("homepage == %@", [URL(string: "https://a.b")!]), ("homepage == 'https://a.b'", []),
            ("extra == nil", []), ("extra != nil", []), ("age == 70000", []), ("age IN {}", []),
            ("name != nil AND age != nil", [])
        ]
        for (format, arguments) in accepted {
            #expect(throws: Never.self, "\(format)") {
                _ = try FetchPredicate(format: format, argumentArray: arguments).bind(
                    to: PredicateFixtures.person, in: PredicateFixtures.model)
            }
        }
    }

    @Test func orderingNeedsOrderedTypes() {
        #expect(
            bindError("flag < YES")?.message == "Person.flag is boolean, which has no order: '<' applies only to numbers, dates and strings"
        )
        #expect(bindError("id > %@", UUID())?.kind == .typeMismatch)
        #expect(bindError("photo >= %@", Data())?.kind == .typeMismatch)
        #expect(bindError("homepage <= 'x'")?.kind == .typeMismatch)
        #expect(bindError("extra > 'x'")?.kind == .typeMismatch)
        #expect(bindError("flag BETWEEN {NO, YES}")?.message.contains("'BETWEEN' applies only to numbers, dates and strings") == true)
        #expect(
            bindError("age > nil")?.message
                == "Person.age > nil is never true (an ordering comparison with nil is unknown); use == nil or != nil")
        #expect(bindError("age BETWEEN {nil, 3}")?.kind == .typeMismatch)
    }

    @Test func attributeAgainstAttribute() throws {
        for format in [
            "minAge < maxAge", "age == score", "price > age", "price == price", "weight != big",
            "name == homepage", "name < name", "birthday <= birthday", "flag == flag", "id == id", "photo != photo"
        ] {
            #expect(throws: Never.self, "\(format)") { _ = try PredicateFixtures.bind(format) }
        }
        #expect(bindError("age == name")?.message == "Person.age (integer16) cannot be compared with Person.name (string)")
        #expect(bindError("flag == age")?.kind == .typeMismatch)
        #expect(bindError("extra == extra")?.kind == .typeMismatch)
        #expect(bindError("name < homepage")?.message.contains("homepage is uri, which has no order") == true)
        #expect(bindError("id < id")?.kind == .typeMismatch)
    }

    @Test func twoValuesCannotBeCompared() {
        // The parser refuses this; a tree built another way is refused at binding too.
        let predicate = FetchPredicate(node: .comparison(.value(.integer(1)), .equal, .value(.integer(1))))
        let error = PredicateFixtures.error { _ = try predicate.bind(to: PredicateFixtures.person, in: PredicateFixtures.model) }
        #expect(error?.message == "the predicate compares two values (1 == 1); one side must be a key")
    }

    @Test func sortDescriptors() throws {
        let sort = try FetchSortDescriptor(key: "name").bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        #expect(sort.type == .string)
        #expect(sort.ascending)
        #expect(sort.sqlOrderingTerm == "\"name\" ASC")
        #expect(
            try FetchSortDescriptor(key: "price", ascending: false).bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
                .sqlOrderingTerm
                == "objectgraph_real(\"price\") DESC")
        for key in ["photo", "id", "extra", "flag", "birthday", "homepage"] {
            #expect(throws: Never.self) {
                _ = try FetchSortDescriptor(key: key).bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
            }
        }
        var error = PredicateFixtures.error {
            _ = try FetchSortDescriptor(key: "nam").bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.message == "Person has no attribute named 'nam'; did you mean 'name'?")
        error = PredicateFixtures.error {
            _ = try FetchSortDescriptor(key: "nickname").bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        }
        #expect(error?.message == "Person.nickname is transient: transient attributes are not stored, so a sort descriptor cannot use them")
        #expect(
            try FetchSortDescriptor(key: "author.name", comparison: .caseInsensitive).bind(
                to: PredicateFixtures.person, in: PredicateFixtures.model
            ).sqlOrderingTerm
                == #"(SELECT "_hop0_0"."name" FROM "Person" AS "_hop0_0" WHERE "_hop0_0"."_pk" = "Person"."author") COLLATE OBJECTGRAPH_NOCASE ASC"#
        )
        error = PredicateFixtures.error {
            _ = try FetchSortDescriptor(key: "author").bind(to: PredicateFixtures.person, in: PredicateFixtures.model)
        }
        #expect(
            error?.message
                == "Person.author is not an attribute: a sort descriptor sorts by an attribute, possibly through to-one relationships")
        #expect(FetchSortDescriptor(key: "a") == FetchSortDescriptor(key: "a", ascending: true))
    }
}
