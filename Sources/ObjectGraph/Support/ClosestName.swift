/// The candidate closest to `name` by edit distance (case-insensitive), if one is close enough to
/// be a plausible typo: at most a third of the name's length, and at least one edit allowed.
func closestName(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(target, Array(candidate.lowercased()))
        if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    guard let best, best.distance <= max(1, target.count / 3) else { return nil }
    return best.name
}

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one
/// edit each (optimal string alignment), so the typo "titel" is one edit from "title".
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}

/// `name` with "a" or "an" before it, for messages ("an Author", "a Book").
func withArticle(_ name: String) -> String {
    let startsWithVowel = name.first.map { "AEIOUaeiou".contains($0) } ?? false
    return "\(startsWithVowel ? "an" : "a") \(name)"
}
