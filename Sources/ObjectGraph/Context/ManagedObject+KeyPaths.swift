import Foundation

/// Dotted key paths, as Core Data's key-value coding reads them: `book.value(forKeyPath:
/// "author.name")`, `author.value(forKeyPath: "books.@count")`, `"books.@sum.pageCount"`.
extension ManagedObject {
    /// The value at `keyPath`: keys joined by dots, through to-one relationships (`nil` as soon
    /// as one is empty), ending in
    /// - an attribute or relationship, as `value(forKey:)` returns it;
    /// - after a to-many, an attribute of its members: their non-nil values, as a `Set` (an
    ///   array in order for an ordered relationship);
    /// - after a to-many, a collection operator: `@count`, or `@sum`, `@avg`, `@min`, `@max`
    ///   followed by an attribute of the members (nil values ignored; `@sum` of none is 0,
    ///   the others nil), as an `NSNumber` (a `Decimal` for decimals, a `Date` or `String` for
    ///   `@min`/`@max` of those).
    ///
    /// Throws `.unknownKey` for a key the entity does not have and `.invalidOperation` for a
    /// path this does not read (two to-manys, an operator not after a to-many).
    public func value(forKeyPath keyPath: String) throws -> Any? {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else { throw unsupportedPath(keyPath, "it has an empty key") }
        var object = self
        for (position, key) in keys.enumerated() {
            if key.hasPrefix("@") { throw misplacedOperator(key, in: keyPath) }
            if position == keys.count - 1 { return try object.value(forKey: key) }
            let relationship = try object.entity.requireRelationship(key)
            if relationship.isToMany {
                return try object.value(ofMembers: relationship, keys[(position + 1)...], in: keyPath)
            }
            guard let next = try object.relatedObject(forKey: key) else { return nil }
            object = next
        }
        return nil
    }

    /// What `keys` (the rest of `keyPath`) read from the members of the to-many `relationship`.
    private func value(ofMembers relationship: RelationshipDescription, _ keys: ArraySlice<String>, in keyPath: String) throws -> Any? {
        let members = try orderedRelatedObjects(forKey: relationship.name)
        // Reading the members needed the context, so its model is there.
        guard let destination = managedObjectContext?.model?.entities[relationship.destinationIndex] else { return nil }
        let first = keys[keys.startIndex]
        if let function = CollectionOperator(rawValue: first) {
            if function == .count {
                guard keys.count == 1 else { throw unsupportedPath(keyPath, "nothing may follow @count") }
                return NSNumber(value: members.count)
            }
            guard keys.count == 2 else { throw unsupportedPath(keyPath, "\(first) is followed by one attribute of \(destination.name)") }
            let attribute = try destination.requireAttribute(keys[keys.startIndex + 1])
            let values = try members.map { try $0.observedValue(at: attribute.index) }
            if attribute.type == .decimal { return try Self.decimalAggregate(function, values, attribute, of: destination) }
            guard function.aggregates(attribute.type) else {
                throw unsupportedPath(
                    keyPath,
                    "\(first) applies to numbers (and dates and strings for @min and @max), not to \(destination.name).\(attribute.name), a \(attribute.type.rawValue) attribute"
                )
            }
            return BoundPredicate.aggregate(function, values).bridgedValue(as: function.resultType(over: attribute.type))
        }
        if first.hasPrefix("@") { throw misplacedOperator(first, in: keyPath) }
        guard keys.count == 1 else {
            throw unsupportedPath(
                keyPath, "it continues after \(entity.name).\(relationship.name), a to-many; read each member's key path instead")
        }
        let attribute = try destination.requireAttribute(first)
        let values = try members.compactMap { try $0.observedValue(at: attribute.index).bridgedValue(as: attribute.type) }
        if relationship.isOrdered { return values }
        // Every attribute type's value is Hashable (NSNumber, String, Date, Data, UUID, URL,
        // Decimal, JSONDocument).
        return Set(values.compactMap { $0 as? AnyHashable })
    }

    /// @sum, @avg, @min and @max of decimal values, exactly (SQL reads decimals as text, so
    /// predicates do not aggregate them; in memory they can be).
    private static func decimalAggregate(
        _ function: CollectionOperator, _ values: [AttributeValue], _ attribute: AttributeDescription, of entity: EntityDescription
    ) throws -> Decimal? {
        let decimals = values.compactMap { value -> Decimal? in if case .decimal(let decimal) = value { decimal } else { nil } }
        switch function {
        case .sum: return decimals.reduce(0, +)
        case .avg: return decimals.isEmpty ? nil : decimals.reduce(0, +) / Decimal(decimals.count)
        case .min: return decimals.min()
        case .max: return decimals.max()
        case .count: return Decimal(decimals.count)
        }
    }

    private func misplacedOperator(_ key: String, in keyPath: String) -> ObjectGraphError {
        let known = ["@count", "@sum", "@avg", "@min", "@max"]
        let what =
            known.contains(key)
            ? "\(key) follows a to-many relationship" : "\(key) is not a collection operator (\(known.joined(separator: ", ")))"
        return unsupportedPath(keyPath, what)
    }

    private func unsupportedPath(_ keyPath: String, _ reason: String) -> ObjectGraphError {
        ObjectGraphError(
            .invalidOperation, "\(entity.name) cannot read the key path '\(keyPath)': \(reason)", entityName: entity.name, key: keyPath)
    }
}
