extension AttributeType {
    /// The STRICT column type that holds this attribute type, per the shared storage mapping.
    var sqliteColumnType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float, .date: "REAL"
        case .decimal, .string, .uri, .json: "TEXT"
        case .binary, .uuid: "BLOB"
        }
    }
}
