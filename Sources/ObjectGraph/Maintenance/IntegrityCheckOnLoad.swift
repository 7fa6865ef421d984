/// When loading a SQLite store runs SQLite's `quick_check` of the file (the first part of
/// `PersistentStoreCoordinator.checkIntegrity(quick: true)`), refusing a damaged store with a
/// `.corruptStore` error that lists the damage. The check reads the whole file: about 2 ms a
/// megabyte from the page cache.
public enum IntegrityCheckOnLoad: Sendable, Equatable {
    /// Never: damage shows when a read or save meets it.
    case never
    /// On every load.
    case always
    /// On loads of store files of at most this many bytes (larger ones load unchecked).
    case whenFileIsAtMost(bytes: Int)

    /// The default: files up to 32 MiB (at most ~70 ms), which covers most apps' stores.
    public static let automatic = IntegrityCheckOnLoad.whenFileIsAtMost(bytes: 32 << 20)

    /// Whether a store file of `size` bytes (nil: no file) is checked.
    func applies(toFileOfSize size: Int?) -> Bool {
        switch self {
        case .never: false
        case .always: true
        case .whenFileIsAtMost(let bytes): size.map { $0 <= bytes } ?? false
        }
    }
}
