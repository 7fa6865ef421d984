/// The columns of one table of a SQL store (SQLite or PostgreSQL): an entity, or a whole inheritance hierarchy kept in its root's
/// table with an `"_entity"` column naming each row's entity.
///
/// Columns come after `"_pk"`, `"_version"` (and `"_entity"`): every entity's own stored
/// attributes and to-one foreign keys, root first and parents before children, then the position
/// columns of ordered to-manys kept through those foreign keys. A foreign key to an entity with
/// sub-entities is followed by `"_<relationship>_entity"`, naming the destination's entity. Entities
/// of one hierarchy that declare a property of the same name share its column (a row only ever
/// uses its own entity's properties); if their column types differ the column is `ANY`. Only the
/// root's required attributes are `NOT NULL`: other rows have no value there.
package struct TableLayout {
    package struct ColumnDefinition {
        package let name: String
        /// The SQLite column type; `ANY` when entities sharing the column store different types.
        package var type: String
        package let isRequired: Bool
        /// The attribute type the column holds, `nil` for keys, entity names and positions
        /// (integers, text, integers); when entities sharing the column differ, the first's.
        package let attributeType: AttributeType?
    }

    /// The entity whose name the table has.
    package let root: EntityDescription
    /// The entities whose rows the table holds, parents before children.
    package let entities: [EntityDescription]
    package let columns: [ColumnDefinition]
    /// The columns of attributes that do not have their own name's column, by attribute (every
    /// entity's description of it): with `separatingTypes`, an attribute whose name an earlier
    /// entity of the hierarchy declared with another type gets `<name>_<type>`.
    private let renamedColumns: [ObjectIdentifier: String]

    package static let entityColumn = "_entity"

    /// Whether rows name their entity: the table holds more than one.
    package var hasEntityColumn: Bool { entities.count > 1 }

    /// The layout of `root`'s table. Entities of the hierarchy declaring one attribute name with
    /// different types share an `ANY` column, unless `separatingTypes` (for databases without
    /// such a type): then each other type gets a column of its own.
    package init(root: EntityDescription, model: ManagedObjectModel, relationshipLayout: RelationshipLayout, separatingTypes: Bool = false)
    {
        self.root = root
        entities = model.kinds(of: root)
        var columns: [ColumnDefinition] = []
        var renamed: [ObjectIdentifier: String] = [:]
        func add(_ name: String, _ type: String, required: Bool, attributeType: AttributeType? = nil) {
            if let existing = columns.firstIndex(where: { $0.name == name }) {
                if columns[existing].type != type { columns[existing].type = "ANY" }
            } else {
                columns.append(ColumnDefinition(name: name, type: type, isRequired: required, attributeType: attributeType))
            }
        }
        for entity in entities {
            // A primary key is the `_pk` column itself.
            for attribute in entity.ownAttributes where !attribute.isTransient && !attribute.isPrimaryKey {
                var name = attribute.name
                if separatingTypes, let shared = columns.first(where: { $0.name == name }), shared.attributeType != attribute.type {
                    name = "\(attribute.name)_\(attribute.type.rawValue)"
                    for kind in model.kinds(of: entity) {
                        if let own = kind.attribute(named: attribute.name) { renamed[ObjectIdentifier(own)] = name }
                    }
                }
                add(
                    name, attribute.type.sqliteColumnType, required: entity === root && !attribute.isOptional, attributeType: attribute.type
                )
            }
            for relationship in entity.ownRelationships where relationship.isToOne {
                add(relationship.name, "INTEGER", required: false)
                if let column = Self.referenceEntityColumn(relationship, model: model) { add(column, "TEXT", required: false) }
            }
        }
        for entity in entities {
            for column in relationshipLayout.positionColumnsByEntity[entity.index] { add(column, "INTEGER", required: false) }
        }
        self.columns = columns
        self.renamedColumns = renamed
    }

    /// The column holding `attribute` (of one of the table's entities): its own name's, `_pk`
    /// for a primary key, or the column of its type (see `separatingTypes`).
    package func column(of attribute: AttributeDescription) -> String {
        renamedColumns[ObjectIdentifier(attribute)] ?? attribute.columnName
    }

    /// Every renamed attribute's column (see `column(of:)`), by attribute.
    package var attributeColumns: [ObjectIdentifier: String] { renamedColumns }

    /// `"_<relationship>_entity"` for a to-one whose destination has sub-entities (the key alone
    /// does not say which entity the destination is), else `nil`.
    package static func referenceEntityColumn(_ relationship: RelationshipDescription, model: ManagedObjectModel) -> String? {
        model.kindIndexes[relationship.destinationIndex].count > 1 ? "_\(relationship.name)_entity" : nil
    }

    /// `"_entity" IN ('A', 'B')` for the rows of `entities` (entity names are identifiers, so
    /// they need no escaping).
    package static func entityFilter(_ entities: [EntityDescription]) -> String {
        let names = entities.map { "'\($0.name)'" }
        let column = quoteIdentifier(entityColumn)
        return names.count == 1 ? "\(column) = \(names[0])" : "\(column) IN (\(names.joined(separator: ", ")))"
    }
}
