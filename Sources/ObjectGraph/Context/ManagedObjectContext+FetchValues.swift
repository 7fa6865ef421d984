import Foundation

extension ManagedObjectContext {
    /// The values `request` asks for (`propertiesToFetch`), grouped, filtered by
    /// `havingPredicate`, made distinct, sorted and paged. The objects are matched like `fetch`
    /// matches them, unsaved changes included. Groups are computed by the store when it can (SQL's
    /// GROUP BY, for a context without unsaved changes of the objects involved) and from the
    /// objects otherwise, with the same result; groups come in the order of their keys.
    func fetchValues<Result>(_ request: FetchRequest<Result>, store: any PersistentStore) throws -> [FetchedValues] {
        // Sorting and paging apply to the results, by their property names.
        var objectsRequest = request
        objectsRequest.sortDescriptors = []
        objectsRequest.fetchLimit = 0
        objectsRequest.fetchOffset = 0
        let plan = try FetchPlan(objectsRequest, model: store.model)
        let layout = try ValuesLayout(request, entity: plan.entity, model: store.model)
        var rows: [[AttributeValue]]
        if let grouped = try storeGroups(layout, plan, objectsRequest, store) {
            rows = grouped
        } else {
            rows = try groupsFromObjects(layout, plan, objectsRequest, store)
        }
        if let having = layout.having { rows = rows.filter { having.evaluate(ValueRow($0)) } }
        if request.returnsDistinctResults {
            var seen: Set<[AttributeValue]> = []
            rows = rows.filter { seen.insert($0).inserted }
        }
        if !layout.sort.isEmpty {
            rows = rows.map(ValueRow.init).enumerated().sorted { a, b in
                switch compareRows(a.element, b.element, by: layout.sort) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: a.offset < b.offset
                }
            }.map { Array($0.element) }
        }
        let start = min(request.fetchOffset, rows.count)
        let end = request.fetchLimit > 0 ? min(start + request.fetchLimit, rows.count) : rows.count
        return rows[start..<end].map { FetchedValues(names: layout.names, values: $0, types: layout.types) }
    }

    /// The groups as the store computes them, when it can: aggregates whose plain values are all
    /// grouped, and no unsaved changes the store does not know.
    private func storeGroups<Result>(
        _ layout: ValuesLayout, _ plan: FetchPlan, _ request: FetchRequest<Result>, _ store: any PersistentStore
    ) throws -> [[AttributeValue]]? {
        // To-one values are object IDs, which only the objects hold (the store has keys).
        guard !layout.isPerObject, layout.valuesAreGrouped, !layout.fetchesReferences, !hasPendingChanges(for: plan, in: request) else {
            return nil
        }
        let columns = zip(layout.columns, layout.types).map { column, type -> (column: StoreGroupRequest.Column, type: AttributeType) in
            switch column {
            case .value(let operand): (.value(operand), type)
            case .count: (.count, type)
            case .aggregate(let function, let operand): (.aggregate(function, operand), type)
            }
        }
        return try store.groupedValues(
            StoreGroupRequest(
                entity: plan.entity, predicate: plan.predicate, includesSubentities: request.includesSubentities,
                columns: columns, groupBy: layout.groupOperands))
    }

    /// The result rows computed from the matching objects, unsaved changes included.
    private func groupsFromObjects<Result>(
        _ layout: ValuesLayout, _ plan: FetchPlan, _ request: FetchRequest<Result>, _ store: any PersistentStore
    ) throws -> [[AttributeValue]] {
        let objects = try fetchObjects(plan, request: request, store: store)
        let resolver = rowResolver

        // Each object's values of the plain properties and of the aggregated attributes.
        func read(_ operand: BoundPredicate.Operand, _ object: ManagedObject) -> AttributeValue {
            BoundPredicate.value(of: operand, values: object.values, entity: object.entity, objectID: object.objectID, resolve: resolver)
        }
        var groups: [[AttributeValue]: [ManagedObject]] = [:]
        var groupOrder: [[AttributeValue]] = []
        for object in objects {
            let key = layout.groupOperands.map { read($0, object) }
            if groups[key] == nil { groupOrder.append(key) }
            groups[key, default: []].append(object)
        }
        if layout.isPerObject { groupOrder = [] }
        // Groups in the order of their keys, as SQL's ORDER BY of the group keys gives them.
        groupOrder.sort { a, b in
            for (x, y) in zip(a, b) where compareStored(x, y) != 0 { return compareStored(x, y) < 0 }
            return false
        }

        var rows: [[AttributeValue]] = []
        if layout.isPerObject {
            rows = objects.map { object in layout.columns.map { if case .value(let operand) = $0 { read(operand, object) } else { .null } }
            }
        } else {
            // With aggregates and no grouping, every object is one group (even when there are none).
            if groupOrder.isEmpty && layout.groupOperands.isEmpty {
                groupOrder = [[]]
                groups[[]] = []
            }
            for key in groupOrder {
                let members = groups[key] ?? []
                rows.append(
                    layout.columns.map { column in
                        switch column {
                        case .value(let operand): return members.first.map { read(operand, $0) } ?? .null
                        case .count: return .integer(Int64(members.count))
                        case .aggregate(let function, let operand):
                            return BoundPredicate.aggregate(function.collectionOperator, members.map { read(operand, $0) })
                        }
                    })
            }
        }
        return rows
    }
}

/// What a values fetch computes, checked against the entity: one column per fetched property,
/// the grouping, and the result rows' own "entity" (its names and types), which the having
/// predicate and the sort descriptors are bound to.
private struct ValuesLayout {
    enum Column {
        case value(BoundPredicate.Operand)
        case count
        case aggregate(AggregateFunction, BoundPredicate.Operand)
    }

    let names: [String]
    let types: [AttributeType]
    let columns: [Column]
    let groupOperands: [BoundPredicate.Operand]
    /// Without counts and aggregates, each object is a result of its own.
    let isPerObject: Bool
    /// Whether a fetched property is a to-one relationship, whose values are object IDs.
    let fetchesReferences: Bool
    /// Whether every plain value is one of the grouping properties (so a group has one value of it).
    let valuesAreGrouped: Bool
    let having: BoundPredicate?
    let sort: [BoundSort]

    init<Result>(_ request: FetchRequest<Result>, entity: EntityDescription, model: ManagedObjectModel) throws {
        // Without propertiesToFetch, every stored attribute, as Core Data's dictionary requests.
        let properties =
            request.propertiesToFetch.isEmpty
            ? entity.storedAttributes.map { FetchedProperty.attribute($0.name) } : request.propertiesToFetch
        var names: [String] = [], types: [AttributeType] = [], columns: [Column] = []
        var operands: [String: BoundPredicate.Operand] = [:]
        var fetchesReferences = false
        for property in properties {
            guard !names.contains(property.name) else {
                throw ObjectGraphError(
                    .invalidOperation, "propertiesToFetch names '\(property.name)' twice", entityName: entity.name, key: property.name)
            }
            switch property {
            case .attribute(let keyPath):
                if let reference = try Self.referenceOperand(keyPath, entity, model) {
                    // A to-one gives the related object's ID; the column's type only labels it.
                    fetchesReferences = true
                    operands[keyPath] = reference
                    columns.append(.value(reference))
                    types.append(.integer64)
                    break
                }
                let (operand, attribute) = try Self.operand(keyPath, entity, model)
                operands[keyPath] = operand
                columns.append(.value(operand))
                types.append(attribute.type)
            case .count:
                columns.append(.count)
                types.append(.integer64)
            case .aggregate(let function, let keyPath, _):
                let (operand, attribute) = try Self.operand(keyPath, entity, model)
                guard function.collectionOperator.aggregates(attribute.type) else {
                    throw ObjectGraphError(
                        .typeMismatch,
                        "\(entity.name): \(function.rawValue) cannot aggregate \(keyPath), a \(attribute.type.rawValue) attribute",
                        entityName: entity.name, key: keyPath)
                }
                columns.append(.aggregate(function, operand))
                types.append(function.collectionOperator.resultType(over: attribute.type))
            }
            names.append(property.name)
        }
        self.names = names
        self.types = types
        self.columns = columns
        self.groupOperands = try request.propertiesToGroupBy.map { name in
            guard let operand = operands[name] else {
                throw ObjectGraphError(
                    .invalidOperation,
                    "propertiesToGroupBy names '\(name)', which is not an attribute among propertiesToFetch (\(names.joined(separator: ", ")))",
                    entityName: entity.name, key: name)
            }
            return operand
        }
        self.fetchesReferences = fetchesReferences
        self.isPerObject = !columns.contains { if case .value = $0 { false } else { true } } && request.propertiesToGroupBy.isEmpty
        self.valuesAreGrouped = properties.allSatisfy { property in
            guard case .attribute(let keyPath) = property else { return true }
            return request.propertiesToGroupBy.contains(keyPath)
        }
        // The results as rows of an entity of their own, for the having predicate and the sort.
        let resultEntity = EntityDescription(
            name: "\(entity.name) results",
            attributes: zip(names, types).enumerated().map { AttributeDescription(name: $1.0, type: $1.1, isOptional: true, index: $0) },
            index: 0)
        let resultModel = ManagedObjectModel(
            name: "Values", version: 1, entities: [resultEntity], versionHash: "", canonicalJSON: Data(), sourceURL: nil)
        self.having = try request.havingPredicate?.bind(to: resultEntity, in: resultModel)
        self.sort = try request.sortDescriptors.map { try $0.bind(to: resultEntity, in: resultModel) }
    }

    /// The operand of `keyPath` when it names a to-one relationship (possibly through others),
    /// as Core Data's dictionary results give the related object's ID; `nil` for anything else.
    private static func referenceOperand(
        _ keyPath: String, _ entity: EntityDescription, _ model: ManagedObjectModel
    ) throws -> BoundPredicate.Operand? {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let subject = try PredicateBinder(entity: entity, model: model).subject(path, usage: "propertiesToFetch")
        guard case .reference = subject.target else { return nil }
        return subject.operand()
    }

    private static func operand(
        _ keyPath: String, _ entity: EntityDescription, _ model: ManagedObjectModel
    ) throws -> (BoundPredicate.Operand, AttributeDescription) {
        // Decimals are read as stored (not cast): results keep their exact values.
        let (operand, attribute) = try sortOperand(
            keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init), of: entity, in: model,
            usage: "propertiesToFetch", rule: "propertiesToFetch names attributes")
        if case .attributeAsReal(let plain) = operand { return (.attribute(plain), attribute) }
        if case .path(let path, true) = operand { return (.path(path, asNumber: false), attribute) }
        return (operand, attribute)
    }
}
