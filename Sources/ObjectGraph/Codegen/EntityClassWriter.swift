/// Writes the class of one entity; see `ClassGenerator`.
struct EntityClassWriter {
    let entity: EntityDescription
    let generator: ClassGenerator

    private var modifier: String { generator.modifier }
    private var isFinal: Bool { !generator.hasSubentities(entity) }
    private var parent: EntityDescription? { entity.parentName.flatMap(generator.model.entity(named:)) }
    /// The properties the class declares itself; inherited ones are declared by the parent's class.
    private var ownAttributes: ArraySlice<AttributeDescription> { entity.ownAttributes }
    private var ownRelationships: Range<Int> { entity.inheritedCounts.relationships..<entity.relationships.count }

    func write(into code: inout SourceWriter) {
        let name = entity.className
        code.line(
            "/// An object of the entity `\(entity.name)`\(entity.isAbstract ? " (abstract: its objects belong to its sub-entities)" : "")."
        )
        code.line("///")
        code.line("/// Generated from \(generator.sourceFileName); add computed properties and methods in an extension")
        code.line("/// in a file of your own. Reading a property of an object whose row is gone, or changing a")
        code.line("/// deleted object, stops the program with a message naming the object and the property; the")
        code.line("/// throwing `value(forKey:)` and `setValue(_:forKey:)` are the alternative.")
        code.line("\(declarationStart)class \(name): \(conformances) {")
        code.indented { code in
            writeIdentity(into: &code)
            writeNameConstants(into: &code)
            for attribute in ownAttributes {
                code.line()
                writeAttribute(attribute, into: &code)
            }
            for index in ownRelationships {
                code.line()
                writeRelationship(entity.relationships[index], index: index, into: &code)
            }
            code.line()
            writeKeyPaths(into: &code)
        }
        code.line("}")
    }

    /// `final class`, `open class` or `class`: classes with sub-entities must be subclassable, by
    /// other modules too when the code is public.
    private var declarationStart: String {
        if isFinal { return "\(modifier)final " }
        return generator.accessLevel == .public ? "open " : ""
    }

    /// The superclass and protocols; a subclass inherits its parent's conformances.
    private var conformances: String {
        if let parent { return parent.className }
        return "ManagedObject, GeneratedEntityClass, TypedManagedObject"
    }

    private func writeIdentity(into code: inout SourceWriter) {
        code.line("/// The entity's name in the model.")
        if parent == nil && isFinal {
            code.line("\(modifier)static let entityName = \(literal(entity.name))")
        } else {
            // Classes in a hierarchy override the name, so it is a class property.
            code.line("\(classPropertyModifiers)class var entityName: String { \(literal(entity.name)) }")
        }
        if isFinal {
            code.line("/// A final generated class overrides none of the save hooks, so saves skip them.")
            code.line("\(modifier)override class var hasCustomLifecycle: Bool { false }")
        }
        if parent == nil {
            code.line("/// The version hash of the model the class was generated from.")
            code.line("\(modifier)static let _modelVersionHash = \(literal(generator.model.versionHash))")
        }
    }

    /// `open`, `override`, `public`, as a class property of this class needs them.
    private var classPropertyModifiers: String {
        var words: [String] = []
        if generator.accessLevel == .public { words.append(isFinal ? "public" : "open") }
        if parent != nil { words.append("override") }
        return words.map { $0 + " " }.joined()
    }

    private func writeNameConstants(into code: inout SourceWriter) {
        for (title, names) in [("Attributes", entity.attributes.map(\.name)), ("Relationships", entity.relationships.map(\.name))]
        where !names.isEmpty {
            code.line()
            code.line("/// The names of the entity's \(title.lowercased()) (inherited ones included), for key-based calls")
            code.line("/// and predicate strings.")
            code.line("\(modifier)enum \(title) {")
            code.indented { code in
                for name in names { code.line("\(modifier)static let \(identifier(name)) = \(literal(name))") }
            }
            code.line("}")
        }
    }

    private func writeAttribute(_ attribute: AttributeDescription, into code: inout SourceWriter) {
        if let transformer = attribute.valueTransformerName {
            // A generated property cannot throw, and a transformer can: no property for it.
            code.line("// `\(attribute.name)` is transformable by '\(transformer)': read and set it with value(forKey:) and")
            code.line("// setValue(_:forKey:), which run the transformer.")
            return
        }
        let type = attribute.type.swiftTypeName
        let slot = attribute.index
        code.line("/// \(attributeSummary(attribute))")
        if attribute.isOptional {
            code.line("\(modifier)var \(identifier(attribute.name)): \(type)? {")
            code.indented { code in
                code.line("get { _value(at: \(slot)) }")
                code.line("set { _setValue(newValue, at: \(slot)) }")
            }
        } else {
            code.line("\(modifier)var \(identifier(attribute.name)): \(type) {")
            code.indented { code in
                code.line("get {")
                code.indented { code in
                    code.line("guard let value: \(type) = _value(at: \(slot)) else { _missingValue(\(slot)) }")
                    code.line("return value")
                }
                code.line("}")
                code.line("set { _setValue(newValue, at: \(slot)) }")
            }
        }
        code.line("}")
    }

    /// One sentence on what the model says of `attribute`.
    private func attributeSummary(_ attribute: AttributeDescription) -> String {
        var facts = ["`\(attribute.name)`: \(attribute.type.rawValue)", attribute.isOptional ? "optional" : "required"]
        if attribute.isTransient { facts.append("transient (kept in memory, never saved)") }
        if !attribute.defaultValue.isNull { facts.append("default \(attribute.defaultValue.modelLiteralText)") }
        if attribute.type == .json { facts.append("decode it with `.decode(T.self)`, set it with `JSONDocument(encoding:)`") }
        // With a default, a new object has a value from the start.
        if !attribute.isOptional && attribute.defaultValue.isNull { facts.append("reading it before it has a value stops the program") }
        return facts.joined(separator: "; ") + "."
    }

    private func writeRelationship(_ relationship: RelationshipDescription, index: Int, into code: inout SourceWriter) {
        let destination = generator.className(ofEntityNamed: relationship.destinationEntityName)
        let name = identifier(relationship.name)
        let inverse = relationship.inverseName.map { "inverse `\($0)`" } ?? "one-way"
        if relationship.isToOne {
            code.line(
                "/// `\(relationship.name)`: to-one \(relationship.destinationEntityName), \(inverse); setting it updates the inverse.")
            code.line("\(modifier)var \(name): \(destination)? {")
            code.indented { code in
                code.line("get { _destination(\(index), as: \(destination).self) }")
                code.line("set { _setDestination(newValue, \(index)) }")
            }
            code.line("}")
            return
        }
        let ordered = relationship.isOrdered
        let collection = ordered ? "[\(destination)]" : "Set<\(destination)>"
        code.line(
            "/// `\(relationship.name)`: \(ordered ? "ordered " : "")to-many \(relationship.destinationEntityName), \(inverse); loaded on first use, changes update the inverses."
        )
        code.line("\(modifier)var \(name): \(collection) {")
        code.indented { code in
            code.line("get { \(ordered ? "_orderedDestinations" : "_destinations")(\(index), as: \(destination).self) }")
            code.line("set { _setDestinations(newValue, \(index)) }")
        }
        code.line("}")
        let suffix = relationship.name.prefix(1).uppercased() + relationship.name.dropFirst()
        let value = "value"
        code.line()
        code.line("/// Adds `\(value)` to `\(relationship.name)`\(ordered ? " (at the end)" : ""), updating the inverse.")
        code.line("\(modifier)func addTo\(suffix)(_ \(value): \(destination)) { _addDestination(\(value), \(index)) }")
        code.line()
        code.line("/// Adds each of `values` to `\(relationship.name)`\(ordered ? ", in order, at the end" : ""), updating the inverses.")
        code.line(
            "\(modifier)func addTo\(suffix)(_ values: some Sequence<\(destination)>) { for \(value) in values { _addDestination(\(value), \(index)) } }"
        )
        if ordered {
            code.line()
            code.line(
                "/// Inserts `\(value)` into `\(relationship.name)` at `index` (moving it there if it is a member), updating the inverse.")
            code.line(
                "\(modifier)func insertInto\(suffix)(_ \(value): \(destination), at index: Int) { _insertDestination(\(value), at: index, \(index)) }"
            )
        }
        code.line()
        code.line("/// Removes `\(value)` from `\(relationship.name)`, updating the inverse.")
        code.line("\(modifier)func removeFrom\(suffix)(_ \(value): \(destination)) { _removeDestination(\(value), \(index)) }")
        code.line()
        code.line("/// Removes each of `values` from `\(relationship.name)`, updating the inverses.")
        code.line(
            "\(modifier)func removeFrom\(suffix)(_ values: some Sequence<\(destination)>) { for \(value) in values { _removeDestination(\(value), \(index)) } }"
        )
    }

    private func writeKeyPaths(into code: inout SourceWriter) {
        let name = entity.className
        code.line("/// The model property each key path stands for, for `#Predicate` and typed sort orders.")
        // Computed: a stored table of key paths would be a global of a non-Sendable type. In a
        // hierarchy each class lists its own key paths (inherited properties included), so it
        // overrides a class property.
        if parent == nil && isFinal {
            code.line("\(modifier)static var propertyKeyPaths: [AnyKeyPath: String] {")
        } else {
            code.line("\(classPropertyModifiers)class var propertyKeyPaths: [AnyKeyPath: String] {")
        }
        code.indented { code in
            code.line("[")
            code.indented { code in
                for property in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                    code.line("\\\(name).\(identifier(property)): \(literal(property)),")
                }
            }
            code.line("]")
        }
        code.line("}")
    }

    /// `name`, in backquotes when it is a Swift keyword.
    private func identifier(_ name: String) -> String {
        SwiftKeywords.all.contains(name) ? "`\(name)`" : name
    }

    /// A string literal; model names are identifiers and hashes hex, so no escaping is needed.
    private func literal(_ text: String) -> String { "\"\(text)\"" }
}

/// Swift's keywords, which generated property names must quote.
enum SwiftKeywords {
    static let all: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "as", "false", "is", "nil", "super", "throws", "true", "try", "await",
        "any", "some", "async", "consume", "copy", "discard", "each", "borrowing", "consuming"
    ]
}
