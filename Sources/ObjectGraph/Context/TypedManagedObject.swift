/// A class for one entity of a model, with typed properties instead of string keys: generated
/// from the model by the ObjectGraph build plugin (or `objectgraph generate`), or written by hand.
///
/// The key-path table is what turns Swift's own expressions into fetch predicates and sort
/// orders: `#Predicate<Book> { $0.pages > 300 }` reads `\Book.pages` and finds the model's
/// `pages` attribute here.
public protocol TypedManagedObject: ManagedObject {
    /// The name of the class's entity in the model.
    static var entityName: String { get }
    /// The model property (attribute or relationship) each of the class's key paths stands for.
    static var propertyKeyPaths: [PartialKeyPath<Self>: String] { get }
}

extension TypedManagedObject {
    /// The model property `keyPath` stands for, when it is one of the class's key paths.
    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        (keyPath as? PartialKeyPath<Self>).flatMap { propertyKeyPaths[$0] }
    }
}
