import Foundation

// UIKit gives IndexPath its section/item vocabulary; Linux's Foundation does not, and a fetched
// results controller speaks it.
extension IndexPath {
    /// The index path of `item` in `section`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The index path of `row` in `section` (the same as `init(item:section:)`).
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The section: the first index.
    public var section: Int { self[0] }

    /// The position within the section: the second index.
    public var item: Int { self[1] }

    /// The position within the section (the same as `item`).
    public var row: Int { self[1] }
}
