extension BoundPredicate {
    /// How deeply a predicate may nest once NOTs are moved onto comparisons, in levels of
    /// SQLite's parser stack: each AND or OR group inside another is one level, a NOT one, each
    /// subquery of a collection (ANY/ALL/NONE, @count, SUBQUERY, @sum…) `subqueryNesting`, each
    /// to-one hop of a key path `hopNesting`. SQLite refuses SQL nested much deeper than this
    /// ("parser stack overflow": measured at about 80 levels of groups, 9 nested subqueries
    /// or key paths of 11 hops), so every store refuses
    /// such predicates alike, before fetching.
    static let maximumNesting = 64
    static let subqueryNesting = 11
    static let hopNesting = 9
    /// SQLite's default limits on one statement: parameters (`SQLITE_MAX_VARIABLE_NUMBER`) and
    /// bytes of SQL text (`SQLITE_MAX_SQL_LENGTH`, less room for the rest of a fetch's statement).
    static let maximumParameters = 32_766
    static let maximumSQLLength = 990_000
    /// Predicates with more tests than this are written out as SQL when bound, to check them
    /// against SQLite's limits (smaller ones are far below them).
    private static let testsCheckedAgainstSQLiteLimits = 1_000

    /// The predicate with the same answer on every row, in the shape both stores handle best:
    /// NOTs moved onto comparisons (De Morgan's laws, which hold in the three-valued logic of
    /// both stores), double NOTs gone, and groups inside a group of the same kind merged into it,
    /// so `NOT NOT … x` and long `a OR (b OR (c …))` chains nest no deeper than a single test.
    /// Throws when what is left nests deeper than `maximumNesting`.
    init(normalizing root: Node, entity: EntityDescription) throws {
        let normalized = root.normalized(negated: false)
        let nesting = normalized.nesting
        guard nesting <= Self.maximumNesting else {
            throw ObjectGraphError(
                .predicateSyntax,
                "the predicate nests \(nesting) levels deep, more than the \(Self.maximumNesting) that every store accepts because SQLite cannot read SQL nested deeper (each AND or OR group inside another is one level, each collection subquery \(Self.subqueryNesting), each to-one hop of a key path \(Self.hopNesting)); flatten its groups or split it into simpler fetches",
                entityName: entity.name)
        }
        self.init(root: normalized)
        if normalized.testCount > Self.testsCheckedAgainstSQLiteLimits { try checkSQLiteLimits(entity: entity) }
    }

    /// Throws when the predicate's SQL would need more parameters or text than SQLite takes.
    private func checkSQLiteLimits(entity: EntityDescription) throws {
        let fragment = sqlFragment()
        let problem: String
        if fragment.bindings.count > Self.maximumParameters {
            problem = "\(fragment.bindings.count) values, more than the \(Self.maximumParameters) SQLite takes in one statement"
        } else if fragment.sql.utf8.count > Self.maximumSQLLength {
            problem = "\(fragment.sql.utf8.count) bytes of SQL, more than the \(Self.maximumSQLLength) SQLite takes in one statement"
        } else {
            return
        }
        throw ObjectGraphError(
            .predicateSyntax,
            "the predicate is too large for every store: it needs \(problem); put long lists of values after IN (one value, however long the list) or split the fetch",
            entityName: entity.name)
    }
}

extension BoundPredicate.Node {
    /// This node (its negation when `negated`) with NOTs pushed onto the tests and same-kind
    /// groups merged.
    func normalized(negated: Bool) -> Self {
        switch self {
        case .not(let node):
            return node.normalized(negated: !negated)
        case .and(let nodes):
            return Self.group(nodes.map { $0.normalized(negated: negated) }, conjunction: !negated)
        case .or(let nodes):
            return Self.group(nodes.map { $0.normalized(negated: negated) }, conjunction: negated)
        case .constant(let value):
            return .constant(value != negated)
        case .identity(let lhs, let rhs, let isNot):
            // IS and IS NOT are never unknown: negating one is the other.
            return .identity(lhs.normalized, rhs.normalized, negated: isNot != negated)
        case .quantified(let quantifier, let collection, let inner):
            return Self.negated(.quantified(quantifier, collection, inner.normalized(negated: false)), negated)
        case .ordering(let lhs, let comparison, let rhs):
            return Self.negated(.ordering(lhs.normalized, comparison, rhs.normalized), negated)
        case .between(let operand, let lower, let upper):
            return Self.negated(.between(operand.normalized, lower: lower.normalized, upper: upper.normalized), negated)
        case .membership(let operand, let values):
            return Self.negated(.membership(operand.normalized, values), negated)
        case .text(let operand, let op, let options, let pattern, let prepared):
            return Self.negated(.text(operand.normalized, op, options, pattern, prepared), negated)
        }
    }

    private static func negated(_ node: Self, _ negated: Bool) -> Self {
        negated ? .not(node) : node
    }

    /// An AND (`conjunction`) or OR of `nodes`, with the members that are groups of the same
    /// kind spliced in.
    private static func group(_ nodes: [Self], conjunction: Bool) -> Self {
        var members: [Self] = []
        members.reserveCapacity(nodes.count)
        for node in nodes {
            switch (node, conjunction) {
            case (.and(let inner), true), (.or(let inner), false): members += inner
            default: members.append(node)
            }
        }
        return conjunction ? .and(members) : .or(members)
    }

    /// How many tests (comparisons, IN, string operators, quantifiers) the node holds.
    var testCount: Int {
        switch self {
        case .and(let nodes), .or(let nodes): nodes.reduce(0) { $0 + $1.testCount }
        case .not(let node): node.testCount
        default: 1
        }
    }

    /// How many levels of groups and subqueries the node holds (0 for a plain test).
    var nesting: Int {
        switch self {
        case .constant: 0
        case .membership(let operand, _), .text(let operand, _, _, _, _): operand.nesting
        case .identity(let lhs, let rhs, _), .ordering(let lhs, _, let rhs): max(lhs.nesting, rhs.nesting)
        case .between(let operand, let lower, let upper): max(operand.nesting, lower.nesting, upper.nesting)
        case .quantified(_, let collection, let inner): collection.nesting + inner.nesting
        case .and(let nodes), .or(let nodes): 1 + (nodes.map(\.nesting).max() ?? 0)
        case .not(let node): 1 + node.nesting
        }
    }
}

extension BoundPredicate.Operand {
    /// The operand with the predicate of a counted subquery normalized.
    var normalized: Self {
        guard case .count(let collection, let predicate?) = self else { return self }
        return .count(collection, where: predicate.normalized(negated: false))
    }

    /// How many levels of groups, subqueries and key path hops the operand holds.
    var nesting: Int {
        switch self {
        case .path(let path, _): path.hops.count * BoundPredicate.hopNesting
        case .count(let collection, let predicate): collection.nesting + (predicate?.nesting ?? 0)
        case .aggregate(_, let collection, _): collection.nesting
        case .attribute, .attributeAsReal, .reference, .ownObject, .value: 0
        }
    }
}

extension BoundPredicate.Collection {
    /// The levels a subquery over the collection takes, with the key path to its owner.
    var nesting: Int {
        BoundPredicate.subqueryNesting + (owner?.hops.count ?? 0) * BoundPredicate.hopNesting
    }
}

extension BoundPredicate {
    /// Throws the error of a MATCHES test that gave up on a value (see
    /// `TextMatcher.matchProgressBudget`): the in-memory evaluator's answer to the error the SQL
    /// function raises in a SQLite fetch.
    func throwIfAMatchGaveUp() throws {
        if let pattern = root.abandonedPattern {
            throw ObjectGraphError(.predicateSyntax, TextMatcher.abandonedMatchMessage(pattern))
        }
    }
}

extension BoundPredicate.Node {
    /// The pattern of a MATCHES test in the node that gave up on a value, if one did.
    fileprivate var abandonedPattern: String? {
        switch self {
        case .text(_, .matches, _, let pattern, let prepared) where prepared.gaveUp: pattern
        case .quantified(_, _, let inner), .not(let inner): inner.abandonedPattern
        case .and(let nodes), .or(let nodes): nodes.lazy.compactMap(\.abandonedPattern).first
        default: nil
        }
    }
}
