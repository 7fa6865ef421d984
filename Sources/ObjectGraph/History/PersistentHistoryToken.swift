/// A place in a store's persistent history: the transaction it names and every one before it.
/// Tokens of one store are ordered as their transactions were committed, and never reused, even
/// after history is deleted. Codable, so a program can keep the last token it processed.
public struct PersistentHistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The store the token belongs to (`PersistentStoreCoordinator.persistentStoreIdentifier`).
    public let storeIdentifier: String
    /// The transaction's number in the store: larger for later transactions.
    public let transactionNumber: Int64

    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    public var description: String { "\(storeIdentifier)#\(transactionNumber)" }
}
