import Foundation

extension FetchPredicate {
    /// The fetch predicate Foundation's `#Predicate` stands for, over an entity class:
    ///
    /// ```swift
    /// let long = try FetchPredicate(#Predicate<Book> { $0.pages > 300 && $0.title.contains("Swift") })
    /// ```
    ///
    /// It compiles to SQL for the SQLite store and evaluates in memory for the in-memory store
    /// and unsaved changes, exactly as the equivalent format string does. Supported: comparisons,
    /// `&&`, `||`, `!`, `== nil` and `!= nil`, `??`, optional chaining through to-one
    /// relationships (`$0.author?.name`), `String.contains(_:)` and `starts(with:)`, a captured
    /// array's or range's `contains`, and a to-many relationship's `count`, `isEmpty`,
    /// `contains(where:)`, `allSatisfy` and `filter { … }.count`. Anything else throws
    /// `.invalidOperation` naming the expression — it is never run row by row in memory; a key
    /// path the class does not list in `propertyKeyPaths` throws `.unknownKey`.
    public init<Object: TypedManagedObject>(_ predicate: Predicate<Object>) throws {
        var translator = SwiftPredicateTranslator(root: predicate.variable.key)
        self.init(node: try translator.condition(predicate.expression))
    }
}

extension FetchSortDescriptor {
    /// The sort order of Foundation's `SortDescriptor(\Book.title, order: .reverse)`. Strings
    /// compared `.lexical` (the only comparator Linux Foundation builds) sort by `.binary`; any
    /// other string comparator (from Apple platforms' Foundation) by `.localizedStandard`.
    /// Throws `.unknownKey` for a key path the class does not list in `propertyKeyPaths`.
    public init<Object: TypedManagedObject>(_ descriptor: SortDescriptor<Object>) throws {
        guard let keyPath = descriptor.keyPath, let name = Object.propertyName(for: keyPath) else {
            throw ObjectGraphError(
                .unknownKey,
                "SortDescriptor: \(descriptor.keyPath.map { "\($0)" } ?? "a comparator without a key path") is not a property of the model (\(Object.entityName) lists its key paths in propertyKeyPaths)",
                entityName: Object.entityName)
        }
        var comparison = SortComparison.binary
        if var strings = descriptor.stringComparator {
            strings.order = .forward
            if strings != .lexical { comparison = .localizedStandard }
        }
        self.init(key: name, ascending: descriptor.order == .forward, comparison: comparison)
    }
}

extension FetchRequest where Result: TypedManagedObject {
    /// A request for the objects of `Result`'s entity matching `predicate` (Foundation's
    /// `#Predicate`), sorted by `sortBy`: `try FetchRequest(predicate: #Predicate<Book> { $0.pages > 300 }, sortBy: [SortDescriptor(\.title)])`.
    public init(predicate: Predicate<Result>? = nil, sortBy: [SortDescriptor<Result>] = []) throws {
        self.init(
            entityName: Result.entityName, predicate: try predicate.map { try FetchPredicate($0) },
            sortDescriptors: try sortBy.map { try FetchSortDescriptor($0) })
    }
}
