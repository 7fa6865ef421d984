/// An error from ObjectGraph: what went wrong, where, and why, in a sentence a person can act on.
///
/// `kind` lets code react to a class of failure; `description` is the readable explanation. Errors
/// caused by SQLite carry its extended result code; the SQL text is kept in `sql` but left out of
/// the description, because statements may reveal private schema details in logs.
public struct ObjectGraphError: Error, Sendable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable, Equatable {
        /// A model file is malformed or inconsistent; `issues` lists every problem.
        case invalidModel
        /// The store file was created by a different model (its version hash differs) and was not
        /// migrated: migration is turned off, or the change cannot be inferred (`issues` lists why).
        case modelMismatch
        /// The store cannot be opened: missing directory, a directory, permissions, not a database.
        case storeUnavailable
        /// The store is read-only and a write was attempted.
        case readOnly
        /// The disk (or the store's size limit) is full.
        case diskFull
        /// The store file is damaged.
        case corruptStore
        /// Another connection (perhaps another process) kept the store locked for longer than the
        /// store description's `busyTimeout`; trying again later may succeed.
        case busy
        /// Objects failed validation; `validationFailures` lists each object, key and reason.
        case validation
        /// A uniqueness constraint (or another database constraint) was violated.
        case constraintViolation
        /// An entity name is not in the model.
        case unknownEntity
        /// A key is not an attribute of the entity.
        case unknownKey
        /// A value does not have the type the model declares.
        case typeMismatch
        /// A predicate string is malformed.
        case predicateSyntax
        /// An object ID does not name an existing object.
        case objectNotFound
        /// An operation is not allowed in the current state (for example, using a deleted object).
        case invalidOperation
        /// A save met changes made elsewhere since the context read its objects, and the merge
        /// policy is `.error` (or could not resolve them); `mergeConflicts` lists each one.
        case mergeConflict
        /// Any other SQLite failure; `sqliteCode` holds SQLite's extended result code.
        case sqlite
    }

    /// The class of failure.
    public let kind: Kind
    /// The readable explanation (also `description`).
    public let message: String
    /// The entity concerned, when there is one.
    public var entityName: String?
    /// The object concerned, when there is one.
    public var objectID: ManagedObjectID?
    /// The property concerned, when there is one.
    public var key: String?
    /// Every problem found in a model, for `.invalidModel`.
    public var issues: [ModelIssue] = []
    /// Every failed validation, for `.validation`.
    public var validationFailures: [ValidationFailure] = []
    /// Every conflict a save found, for `.mergeConflict`.
    public var mergeConflicts: [MergeConflict] = []
    /// SQLite's extended result code, when SQLite reported the failure.
    public var sqliteCode: Int32?
    /// The SQL statement that failed, if any. Not part of `description`.
    public var sql: String?

    package init(_ kind: Kind, _ message: String, entityName: String? = nil, objectID: ManagedObjectID? = nil, key: String? = nil) {
        self.kind = kind
        self.message = message
        self.entityName = entityName
        self.objectID = objectID
        self.key = key
    }

    public var description: String { message }
}

/// One problem in a model file: where it is, what was found and what was expected.
public struct ModelIssue: Sendable, Equatable, CustomStringConvertible {
    /// The model file, or `nil` when the model was loaded from `Data`.
    public let file: String?
    /// The JSON path of the offending value, such as `entities[2].attributes[0].type`.
    public let path: String
    /// What is wrong, including what was found and what was expected.
    public let message: String
    /// The 1-based line where the offending value sits, when known.
    public let line: Int?
    /// The 1-based column (in characters) where the offending value sits, when known.
    public let column: Int?

    /// An issue at `path` in `file`, optionally at `line`:`column`.
    public init(file: String?, path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `file:line:column: path: message`, the shape compilers use, so editors can jump to it.
    public var description: String {
        var location = file ?? "<data>"
        if let line { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        if !path.isEmpty { location += ": \(path)" }
        return "\(location): \(message)"
    }
}

/// One failed validation: which object, which property, and why.
public struct ValidationFailure: Sendable, Equatable, CustomStringConvertible {
    /// The entity of the failing object.
    public let entityName: String
    /// The failing object.
    public let objectID: ManagedObjectID
    /// The failing property, or `nil` for an object-level rule.
    public let key: String?
    /// Why the value is refused.
    public let reason: String
    /// The error the program's own validation code threw (a `validateForInsert()` override, a
    /// `validateValue(_:forKey:)` override, a `ValidationRule`), as it was thrown: `reason`
    /// describes it. `nil` for the model's rules.
    public let underlyingError: (any Error)?
    /// The model's validation predicate the value fails (its format and message), when that is the
    /// rule it breaks; the reason names the value too.
    public let violatedPredicate: ValidationPredicate?

    /// A failure of `object`'s property `key` (`nil` for the object as a whole), for custom
    /// validation rules to throw (wrapped in `ObjectGraphError.validation(_:)`).
    public init(object: ManagedObject, key: String?, reason: String, underlyingError: (any Error)? = nil) {
        self.init(entityName: object.entity.name, objectID: object.objectID, key: key, reason: reason, underlyingError: underlyingError)
    }

    package init(
        entityName: String, objectID: ManagedObjectID, key: String?, reason: String, underlyingError: (any Error)? = nil,
        violatedPredicate: ValidationPredicate? = nil
    ) {
        self.entityName = entityName
        self.objectID = objectID
        self.key = key
        self.reason = reason
        self.underlyingError = underlyingError
        self.violatedPredicate = violatedPredicate
    }

    /// Failures are equal when they name the same object, key and reason (underlying errors
    /// need not be comparable).
    public static func == (lhs: ValidationFailure, rhs: ValidationFailure) -> Bool {
        lhs.entityName == rhs.entityName && lhs.objectID == rhs.objectID && lhs.key == rhs.key && lhs.reason == rhs.reason
    }

    public var description: String {
        "\(objectID.shortDescription)\(key.map { ", \($0)" } ?? ""): \(reason)"
    }
}

extension ObjectGraphError {
    /// A `.validation` error listing `failures`, as `save()` throws it; custom validation rules
    /// and `validateForInsert()`-style overrides may throw it to report precise failures.
    public static func validation(_ failures: [ValidationFailure]) -> ObjectGraphError {
        ObjectValidator.error(for: failures)
    }
}
