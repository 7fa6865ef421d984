/// A `ManagedObject` subclass that stands for one entity of a model: objects of that entity are
/// created as instances of the class once it is registered with `ManagedObjectModel.register(_:)`.
///
/// Generated classes conform to it (and, when they are `final`, to `TypedManagedObject`). A
/// hand-written class needs only `entityName`; its properties can read and write through
/// `value(forKey:)` and `setValue(_:forKey:)`:
///
/// ```swift
/// final class Note: ManagedObject, EntityClass {
///     static let entityName = "Note"
///     var text: String? {
///         get { try? value(forKey: "text", as: String.self) }
///         set { try? setValue(newValue, forKey: "text") }
///     }
/// }
/// ```
///
/// A class with subclasses overrides `entityName` as a `class var` in each subclass.
public protocol EntityClass: ManagedObject {
    /// The name of the class's entity in the model.
    static var entityName: String { get }
}

extension EntityClass {
    /// Creates an object of the class's entity with its default values and inserts it into
    /// `context`, as Core Data's `init(context:)` does.
    ///
    /// The class must be the one registered for its entity in the context's model (see
    /// `ManagedObjectModel.register(_:)`); using it with a context whose model has no such entity,
    /// or registers another class for it, is a programming error that stops the program with a
    /// message naming both. `context.insertNewObject(forEntityName:)` is the throwing alternative.
    public init(context: ManagedObjectContext) {
        let entity: EntityDescription
        do {
            entity = try context.entityForInsertion(of: Self.self, named: Self.entityName)
        } catch {
            preconditionFailure("\(Self.self)(context:): \(error)")
        }
        guard Self.insertsThroughRows else {
            self.init(entity: entity, insertInto: context)
            return
        }
        self.init(row: context.newObjectRow(for: entity))
        context.insert(self)
    }

    /// A request for the objects of the class's entity (and its sub-entities), typed so that
    /// `context.fetch(Book.fetchRequest())` returns `[Book]`.
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>(entityName: entityName)
    }
}
