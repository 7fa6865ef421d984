import Foundation
import ObjectGraph

// What users add to generated classes in their own files: computed properties that are never
// stored, and typed views of `json` attributes.
extension CatalogBook {
    /// The title with the edition, as a list shows it.
    var displayTitle: String { edition > 1 ? "\(title) (\(edition). edition)" : title }

    /// The `metadata` JSON as a Codable value.
    var details: BookDetails? {
        get { try? metadata?.decode(BookDetails.self) }
        set { metadata = try? newValue.map { try JSONDocument(encoding: $0) } }
    }
}

struct BookDetails: Codable, Equatable {
    var language: String
    var keywords: [String]
}
