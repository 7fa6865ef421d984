import Foundation

/// Turning a failed row write into an error that names the object, the property and the reason,
/// worded exactly as the in-memory store words it (`ConstraintViolation`), with SQLite's code and
/// statement attached.
extension SQLiteStoreState {
    func explain(_ failure: SQLiteFailure, objectID: ManagedObjectID, values: ValueRow, table: StoreTable) -> ObjectGraphError {
        let entity = table.entity
        switch failure.code {
        case SQLiteResultCode.constraintUnique, SQLiteResultCode.constraintPrimaryKey:
            // A primary key attribute is the `_pk` column: its clash is a uniqueness clash on it.
            let columns = Self.constrainedColumns(in: failure.message).map { column in
                column == StoreSchema.primaryKeyColumn ? entity.primaryKey ?? column : column
            }
            if columns == [StoreSchema.primaryKeyColumn] {
                return failure.error(
                    .constraintViolation,
                    "Cannot save \(objectID.shortDescription): another \(entity.name) already has its primary key; nothing was written.",
                    entityName: entity.name, objectID: objectID)
            }
            let attributes = columns.compactMap(entity.attribute(named:))
            guard !attributes.isEmpty, attributes.count == columns.count else { break }
            return failure.attach(
                to: ConstraintViolation.uniqueness(
                    entity: entity, objectID: objectID, keys: columns, values: attributes.map { values[$0.index] }))
        case SQLiteResultCode.constraintNotNull:
            guard let column = Self.constrainedColumns(in: failure.message).first, entity.attribute(named: column) != nil else { break }
            return failure.attach(to: ConstraintViolation.missingValue(entity: entity, objectID: objectID, key: column))
        default:
            break
        }
        return failure.error("Cannot save \(objectID.shortDescription)", entityName: entity.name, objectID: objectID)
    }

    /// The column names of a constraint message: "UNIQUE constraint failed: Member.first,
    /// Member.last" gives ["first", "last"]; "NOT NULL constraint failed: Member.email" ["email"].
    static func constrainedColumns(in message: String) -> [String] {
        guard let colon = message.range(of: "constraint failed: ") else { return [] }
        return message[colon.upperBound...].split(separator: ",").map { qualified in
            let name = qualified.trimmingCharacters(in: .whitespaces)
            return name.split(separator: ".", maxSplits: 1).last.map(String.init) ?? name
        }
    }
}
