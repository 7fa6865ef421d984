/// A class for one entity of a model, with typed properties instead of string keys: generated
/// from the model by the ObjectGraph build plugin (or `objectgraph generate`), or written by hand.
///
/// The key-path table is what turns Swift's own expressions into fetch predicates and sort
/// orders: `#Predicate<Book> { $0.pages > 300 }` reads `\Book.pages` and finds the model's
/// `pages` attribute here. Key paths are rooted at the class itself (`\Employee.name`, not
/// `\Person.name`, for an inherited property), so in a class hierarchy each class lists its
/// own, as a `class var` the subclasses override.
public protocol TypedManagedObject: EntityClass {
    /// The model property (attribute or relationship) each of the class's key paths stands for.
    static var propertyKeyPaths: [AnyKeyPath: String] { get }
}

extension TypedManagedObject {
    /// The model property `keyPath` stands for, when it is one of the class's key paths.
    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        propertyKeyPaths[keyPath]
    }
}
