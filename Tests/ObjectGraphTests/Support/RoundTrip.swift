import Foundation

@testable import ObjectGraph

extension TestStore {
    /// Saves one `Item` per value of `values` in attribute `key`, reopens the store (SQLite) and
    /// returns the values read back as `T` from a fresh context, in the same order.
    func roundTrip<T>(_ key: String, _ values: [T?], as type: T.Type = T.self) throws -> [T?] {
        try withNewContext { context in
            for (index, value) in values.enumerated() {
                try context.insertItem(Self.code(index), [key: value])
            }
            try context.save()
        }
        try reopen()
        return try withNewContext { context in
            let items = try context.objects("Item", sortedBy: ["code"])
            guard items.map(\.label) == values.indices.map(Self.code) else {
                throw RoundTripFailure(message: "expected \(values.count) items, read \(items.map(\.label))")
            }
            return try items.map { try $0.value(forKey: key, as: type) }
        }
    }

    private static func code(_ index: Int) -> String { "V" + String(format: "%03d", index) }
}

struct RoundTripFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
