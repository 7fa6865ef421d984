import Foundation
import ObjectGraph

/// The typed `setValue(_:forKey:)` overloads a `Person`'s attributes use, which a managed object
/// (W1) and a batch insert's row (Q7) both have: one function writes a row into either, through
/// the same calls.
protocol PersonValueSetter {
    mutating func setValue(_ value: Int64, forKey key: String) throws
    mutating func setValue(_ value: String, forKey key: String) throws
    mutating func setValue(_ value: String?, forKey key: String) throws
    mutating func setValue(_ value: Double, forKey key: String) throws
    mutating func setValue(_ value: Date, forKey key: String) throws
    mutating func setValue(_ value: Any?, forKey key: String) throws
}

extension ManagedObject: PersonValueSetter {}
extension BatchInsertValues: PersonValueSetter {}

extension PersonRow {
    /// Sets every attribute of `target` to this row's values.
    func write<Target: PersonValueSetter>(into target: inout Target) throws {
        try target.setValue(id, forKey: "id")
        try target.setValue(name, forKey: "name")
        try target.setValue(email, forKey: "email")
        try target.setValue(age, forKey: "age")
        try target.setValue(score, forKey: "score")
        try target.setValue(Date(timeIntervalSinceReferenceDate: createdAt), forKey: "createdAt")
        try target.setValue(bio, forKey: "bio")
    }
}
