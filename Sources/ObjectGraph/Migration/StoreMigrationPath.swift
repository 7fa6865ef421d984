/// The migration of a store from the model that wrote it to the current one: one
/// `StoreMigration` step per model version in between (the current model's
/// `previousVersions` newer than the store's), all run in the caller's one transaction.
package struct StoreMigrationPath: CustomStringConvertible {
    let steps: [StoreMigration]
    /// The stage of each step, if one was given for its pair of versions.
    let stages: [MigrationStage?]
    /// "from model 'Name' version 1 to 'Name' version 3", for messages.
    package let versions: String

    /// The path from `stored` (the model that wrote the store in `target`) to `model`;
    /// throws `.modelMismatch` listing every change of every step that cannot be inferred.
    package init(
        from stored: ManagedObjectModel, to model: ManagedObjectModel, stages given: [MigrationStage] = [],
        mappings explicit: [MappingModel] = [], in target: any MigrationTarget
    ) throws {
        versions = "from model '\(stored.name)' version \(stored.version) to '\(model.name)' version \(model.version)"
        let between = model.previousVersions.filter { $0.name == model.name && $0.version > stored.version && $0.version < model.version }
        let models = [stored] + between + [model]
        let pairs = Array(zip(models, models.dropFirst()))
        // An explicit mapping's work (and the text conversions inference adds) runs as the first
        // part of the step's stage.
        let explicitMappings = pairs.map { source, destination in
            explicit.first { $0.sourceVersion == source.version && $0.destinationVersion == destination.version }
        }
        let givenStages = pairs.map { source, destination in
            given.first { $0.sourceVersion == source.version && $0.destinationVersion == destination.version }
        }
        let mappings = zip(pairs, zip(givenStages, explicitMappings)).map { pair, extra in
            ModelMapping(from: pair.0, to: pair.1, completedByStage: extra.0?.complete != nil || extra.1 != nil, explicit: extra.1)
        }
        stages = zip(mappings, zip(givenStages, explicitMappings)).map { mapping, extra in
            let (stage, explicit) = extra
            var complete = explicit.map { $0.complete(then: stage?.complete) } ?? stage?.complete
            if let conversions = mapping.textConversionMapping { complete = conversions.complete(then: complete) }
            guard complete != nil || stage != nil else { return nil }
            return MigrationStage(
                from: mapping.source.version, to: mapping.destination.version, prepare: stage?.prepare, complete: complete)
        }
        let issues = mappings.flatMap(\.issues)
        guard issues.isEmpty else {
            var error = ObjectGraphError(
                .modelMismatch,
                "Cannot migrate the store at \(target.location) \(versions): \(issues.count) \(issues.count == 1 ? "change cannot" : "changes cannot") be inferred:\n"
                    + issues.map { "  \($0)" }.joined(separator: "\n"))
            error.issues = issues
            throw error
        }
        var existingIndexes = try target.existingIndexes()
        var steps: [StoreMigration] = []
        for mapping in mappings {
            steps.append(StoreMigration(mapping, target: target, existingIndexes: existingIndexes))
            existingIndexes = StoreSchema.indexStatements(in: target.schemaStatements(for: mapping.destination)).map(\.name)
        }
        self.steps = steps
    }

    /// Runs every step in `target`, inside the transaction the caller opened (so on any
    /// failure nothing is changed). `progress` hears of the rows copied after each table.
    package func run(in target: any MigrationTarget, progress: (@Sendable (MigrationProgress) -> Void)? = nil) throws {
        // Each step copies the store's rows once: the total is known before the first.
        let total = try progress == nil ? 0 : rowCount(in: target) * steps.count
        var completed = 0
        for (step, stage) in zip(steps, stages) {
            let label = "version \(step.mapping.source.version) → \(step.mapping.destination.version)"
            try step.run(in: target, stage: stage) { rows, what in
                completed += rows
                progress?(MigrationProgress(completedRows: min(completed, total), totalRows: total, step: "\(label): \(what)"))
            }
        }
        progress?(MigrationProgress(completedRows: total, totalRows: total, step: "done"))
    }

    /// `error`, which stopped the migration of the store at `location`, as the error opening the
    /// store throws: it names the store and the versions and says nothing changed. A stage's own
    /// error keeps its kind when it is ours; any other is what the stage threw.
    package func failure(_ error: any Error, location: String) -> ObjectGraphError {
        let failure = error as? ObjectGraphError
        var explained = ObjectGraphError(
            failure?.kind ?? .invalidOperation,
            "Cannot migrate the store at \(location) \(versions): \(failure?.message ?? "a migration stage threw \(error)"); the store is unchanged",
            entityName: failure?.entityName, key: failure?.key)
        explained.sqliteCode = failure?.sqliteCode
        explained.sql = failure?.sql
        return explained
    }

    /// The rows of the tables the first step copies (entities' and join tables').
    private func rowCount(in target: any MigrationTarget) throws -> Int {
        guard let source = steps.first?.mapping.source else { return 0 }
        let tables =
            source.entities.filter { source.root(of: $0) === $0 }.map(\.name) + RelationshipLayout(model: source).joinTables.map(\.name)
        var total = 0
        for table in tables {
            total += try Int(target.integers("SELECT count(*) FROM \(quoteIdentifier(table))").first ?? 0)
        }
        return total
    }

    /// Each step's statements, under a line naming its versions.
    package var description: String {
        zip(steps, stages).map { step, stage in
            "-- version \(step.mapping.source.version) → \(step.mapping.destination.version)\n\(step.description(stage: stage))"
        }.joined(separator: "\n")
    }
}
