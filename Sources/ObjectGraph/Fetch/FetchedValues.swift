import Foundation

/// One result of a fetch for values rather than objects (Core Data's dictionary result type):
/// the fetched properties by name.
///
/// ```swift
/// var request = FetchRequest<FetchedValues>(entityName: "Book")
/// request.propertiesToFetch = [.attribute("author.name"), .count(as: "books"), .aggregate(.sum, of: "pageCount", as: "pages")]
/// request.propertiesToGroupBy = ["author.name"]
/// request.havingPredicate = try FetchPredicate(format: "books > 1")
/// request.sortDescriptors = [FetchSortDescriptor(key: "pages", ascending: false)]
/// for row in try context.fetch(request) { print(row["author.name"] ?? "–", row["pages"] ?? 0) }
/// ```
public struct FetchedValues: FetchRequestResult, Sendable, Equatable, CustomStringConvertible {
    /// The result's properties in the order of `propertiesToFetch`.
    public let names: [String]
    let values: [AttributeValue]
    let types: [AttributeType]

    /// The value of the property `name` (as `value(forKey:)` returns attribute values), or `nil`.
    public subscript(name: String) -> Any? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return values[index].bridgedValue(as: types[index])
    }

    /// The value of the property `name` as `T`, or `nil` when it is nil, missing or not a `T`.
    /// Integers convert between widths when the value fits, as `ManagedObject.value(forKey:as:)`
    /// does: an `integer16` value reads as `Int`.
    public func value<T>(_ name: String, as type: T.Type) -> T? {
        guard let index = names.firstIndex(of: name), let value = values[index].anyValue(as: types[index]) else { return nil }
        if let typed = value as? T { return typed }
        // Every integer type is stored as one 64-bit integer, whatever width `anyValue` reports.
        if case .integer(let integer) = values[index], let integerType = T.self as? any BinaryInteger.Type {
            return integerType.init(exactly: integer) as? T
        }
        return nil
    }

    public static func == (lhs: FetchedValues, rhs: FetchedValues) -> Bool {
        lhs.names == rhs.names && zip(lhs.values, rhs.values).allSatisfy { $0.isStoredEqual(to: $1) }
    }

    public var description: String {
        "[" + zip(names, values).map { "\($0): \($1.debugText)" }.joined(separator: ", ") + "]"
    }
}

/// A property of a `FetchedValues` result.
public enum FetchedProperty: Sendable, Equatable {
    /// An attribute of the entity, or one reached through to-one relationships (`author.name`),
    /// named by its key path. A to-one relationship (`author`) gives the related object's
    /// `ManagedObjectID`, or nil.
    case attribute(String)
    /// How many objects (of each group).
    case count(as: String)
    /// An aggregate of an attribute (or key path) over the objects of each group.
    case aggregate(AggregateFunction, of: String, as: String)

    /// The name the property has in results.
    public var name: String {
        switch self {
        case .attribute(let keyPath): keyPath
        case .count(let name), .aggregate(_, _, let name): name
        }
    }
}

/// An aggregate over the objects of a group.
public enum AggregateFunction: String, Sendable, Equatable {
    /// The number of objects with a value (nil ones are not counted).
    case count
    /// The sum of the values; 0 for none.
    case sum
    /// The mean of the values, a `Double`; nil for none.
    case average
    /// The smallest value; nil for none.
    case min
    /// The largest value; nil for none.
    case max

    var collectionOperator: CollectionOperator {
        switch self {
        case .count: .count
        case .sum: .sum
        case .average: .avg
        case .min: .min
        case .max: .max
        }
    }
}
