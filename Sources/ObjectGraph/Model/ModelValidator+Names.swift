/// Rules for the names in a model: identifiers, and names reserved by SQLite, by `ManagedObject`'s
/// own API, or by the types generated code must be able to use.
enum ModelNameRules {
    /// The longest name allowed; long enough for any sensible name, short enough for every SQL dialect.
    static let maximumLength = 64

    /// Property names that would collide with `ManagedObject`'s API (or with Swift itself) in
    /// generated subclasses: a property named `objectID` or `isDeleted` would shadow the framework's.
    /// Methods that take arguments (`value(forKey:)`) are not listed: a property cannot clash with them.
    static let reservedPropertyNames: Set<String> = [
        "objectID", "entity", "managedObjectContext", "context", "isFault", "isInserted", "isUpdated",
        "isDeleted", "hasChanges", "hasPersistentChangedValues", "description", "debugDescription", "hash",
        "hashValue", "self", "Self", "super", "init", "deinit", "Type", "Protocol", "changedValues",
        "committedValues", "changedValuesForCurrentEvent", "faultingState", "willSave", "didSave",
        "awakeFromInsert", "awakeFromFetch", "prepareForDeletion", "willTurnIntoFault", "didTurnIntoFault",
        "validateForInsert", "validateForUpdate", "validateForDelete",
        // The name-constant enums of generated classes.
        "Attributes", "Relationships"
    ]

    /// Column names SQLite gives a meaning of its own: the implicit row id's aliases
    /// (compared case-insensitively, like every SQL identifier).
    static let sqliteReservedColumnNames: Set<String> = ["rowid", "oid"]

    /// Class names that would shadow a type generated code refers to (ObjectGraph's public types
    /// and the Swift and Foundation types attributes map to), breaking the generated file.
    static let reservedClassNames: Set<String> = [
        "ManagedObject", "ManagedObjectContext", "ManagedObjectID", "ManagedObjectModel", "EntityDescription",
        "AttributeDescription", "RelationshipDescription", "FetchRequest", "PersistentContainer",
        "PersistentStoreCoordinator", "PersistentStoreDescription", "JSONDocument", "ObjectGraphError",
        "Any", "AnyObject", "Self", "Type", "Protocol", "Int", "Int16", "Int32", "Int64", "Double", "Float",
        "Decimal", "String", "Bool", "Date", "Data", "UUID", "URL", "Array", "Set", "Dictionary", "Optional",
        "EntityClass", "GeneratedEntityClass", "TypedManagedObject", "ManagedObjectRow", "AnyKeyPath", "PartialKeyPath"
    ]

    /// Why `name` is not a valid identifier, or `nil` when it is one: a letter, then letters,
    /// digits or underscores, at most 64 characters. Such names need no quoting anywhere (SQL,
    /// Swift, file names) and never clash with internal columns, which start with `_`.
    static func identifierProblem(_ name: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first else { return "an empty name" }
        guard isASCIILetter(first) else {
            return "a name starting with '\(first)', which is not a letter (A–Z, a–z)"
        }
        if let bad = scalars.first(where: { !isASCIILetter($0) && !("0"..."9").contains($0) && $0 != "_" }) {
            return "a name containing '\(bad)'; only letters, digits and underscores are allowed"
        }
        if scalars.count > maximumLength { return "a name of \(scalars.count) characters, more than \(maximumLength)" }
        return nil
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

extension ModelValidator {
    /// Reports `name` when it is not a valid identifier; returns whether it is one.
    @discardableResult
    mutating func checkIdentifier(_ name: String, what: String, at path: JSONPath, _ position: SourcePosition) -> Bool {
        guard let problem = ModelNameRules.identifierProblem(name) else { return true }
        log.report(
            "found \(what) \"\(name)\" (\(problem)), expected a letter followed by letters, digits or underscores, at most \(ModelNameRules.maximumLength) characters",
            at: path, position)
        return false
    }

    /// Checks an entity name: an identifier not starting with "sqlite", which SQLite reserves for
    /// its own tables.
    mutating func checkEntityName(_ name: String, at path: JSONPath, _ position: SourcePosition) {
        guard checkIdentifier(name, what: "entity name", at: path, position) else { return }
        if name.lowercased().hasPrefix("sqlite") {
            log.report(
                "found entity name \"\(name)\", expected a name not starting with \"sqlite\" (SQLite reserves those table names for itself)",
                at: path, position)
        }
    }

    /// Checks an attribute or relationship name: an identifier that collides neither with
    /// `ManagedObject`'s API nor with SQLite's row id.
    mutating func checkPropertyName(_ name: String, at path: JSONPath, _ position: SourcePosition) {
        guard checkIdentifier(name, what: "property name", at: path, position) else { return }
        if ModelNameRules.reservedPropertyNames.contains(name) {
            log.report(
                "found property name \"\(name)\", which is reserved because it would hide ManagedObject's own \"\(name)\"; expected another name",
                at: path, position)
        } else if ModelNameRules.sqliteReservedColumnNames.contains(name.lowercased()) {
            log.report("found property name \"\(name)\", which SQLite reserves for the row id; expected another name", at: path, position)
        }
    }

    /// Checks a class name (explicit `className`, or the entity name when there is none).
    mutating func checkClassName(_ name: String, at path: JSONPath, _ position: SourcePosition, isExplicit: Bool) {
        guard checkIdentifier(name, what: "class name", at: path, position) else { return }
        if ModelNameRules.reservedClassNames.contains(name) {
            let fix = isExplicit ? "choose another className" : "add a \"className\" with another name"
            log.report("found class name \"\(name)\", which would shadow the type \(name) in generated code; \(fix)", at: path, position)
        }
    }

    /// Reports entities whose names, or class names, differ only in case: SQLite table names are
    /// case-insensitive, and so are file names on some systems (one generated file per class).
    mutating func checkDuplicateEntityNames(_ entities: [EntityDraft]) {
        var seenNames: [String: EntityDraft] = [:]
        var seenClassNames: [String: EntityDraft] = [:]
        for entity in entities {
            let key = entity.name.lowercased()
            if let first = seenNames[key] {
                log.report(
                    "found entity name \"\(entity.name)\" again (\(first.path) is \"\(first.name)\"; names are compared ignoring case), expected a unique name",
                    at: entity.path.key("name"), entity.namePosition)
                // Its class name defaults to the same duplicate name: one report is enough.
                if entity.className == nil { continue }
            } else {
                seenNames[key] = entity
            }
            let className = entity.className?.name ?? entity.name
            if let first = seenClassNames[className.lowercased()] {
                let firstClassName = first.className?.name ?? first.name
                log.report(
                    "found class name \"\(className)\" again (\(first.path) uses \"\(firstClassName)\"; class names are compared ignoring case), expected a unique class name",
                    at: entity.className?.path ?? entity.path.key("name"), entity.className?.position ?? entity.namePosition)
            } else {
                seenClassNames[className.lowercased()] = entity
            }
        }
    }
}
