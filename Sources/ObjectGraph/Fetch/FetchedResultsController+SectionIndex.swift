extension FetchedResultsController {
    /// The title of a section in a section index: the first letter of its name, capitalized (""
    /// for an empty name), as Core Data's default.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String {
        sectionName.first.map { String($0).uppercased() } ?? ""
    }

    /// The section index: each section's title (`sectionIndexTitle(forSectionName:)`), each
    /// title once, in section order; empty before `performFetch()`.
    public var sectionIndexTitles: [String] {
        var seen: Set<String> = []
        return (sections ?? []).map { sectionIndexTitle(forSectionName: $0.name) }.filter { seen.insert($0).inserted }
    }

    /// The number of the first section whose index title is `title` (the section a tap on the
    /// title at `sectionIndex` of the index shows), or nil when no section has that title.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int? {
        (sections ?? []).firstIndex { sectionIndexTitle(forSectionName: $0.name) == title }
    }
}
