/// A grouped values fetch as SQL, in any dialect.
extension StoreGroupRequest {
    /// The SELECT list: each column's value, `count(*)` or aggregate, in result order.
    package func selectedExpressions<Dialect: SQLDialect>(in dialect: Dialect) -> [String] {
        columns.map { column, _ -> String in
            switch column {
            case .value(let operand): return BoundPredicate.sql(for: operand, in: dialect)
            case .count: return "count(*)"
            case .aggregate(let function, let operand):
                let value = BoundPredicate.sql(for: operand, in: dialect)
                switch function {
                case .count: return "count(\(value))"
                case .sum: return "coalesce(sum(\(value)), 0)"
                case .average: return "avg(\(value))"
                case .min: return "min(\(value))"
                case .max: return "max(\(value))"
                }
            }
        }
    }
}
