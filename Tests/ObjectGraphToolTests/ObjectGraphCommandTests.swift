import ArgumentParser
import Testing

@testable import ObjectGraphTool

/// The root command's help, and the errors ArgumentParser reports before any subcommand runs.
@Suite struct ObjectGraphCommandTests {
    @Test func rootHelpListsEverySubcommand() {
        #expect(
            ObjectGraphCommand.helpMessage(columns: 80) == """
                OVERVIEW: Work with ObjectGraph models and stores.

                Models are JSON files in the format described in the ObjectGraph documentation.

                USAGE: objectgraph <subcommand>

                OPTIONS:
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  validate                Check model files and summarise them.
                  schema                  Print the SQL schema the SQLite store creates for a
                                          model.
                  generate                Generate Swift classes for a model's entities.
                  inspect                 Show which model wrote a store, its hashes, and how
                                          many objects each entity has.
                  migrate                 Migrate a store to a model version, or show the plan
                                          with --dry-run.
                  diff                    Show what changed between two model versions and
                                          whether migration can infer it.
                  check                   Check a store's integrity: the file, its metadata,
                                          the references between objects.
                  backup                  Copy a store into a new file, consistently, even
                                          while a program uses it.
                  dump                    Write a store as SQL text: its schema, every row, its
                                          metadata.
                  load                    Make a new store from a dump written by `objectgraph
                                          dump`.
                  recover                 Copy every readable row of a damaged store into a new
                                          store.
                  copy                    Copy every object of a store into a new, empty store.

                  See 'objectgraph help <subcommand>' for detailed help.
                """)
    }

    @Test func validateHelpDescribesItsArguments() {
        #expect(
            ObjectGraphCommand.helpMessage(for: ValidateCommand.self, columns: 80) == """
                OVERVIEW: Check model files and summarise them.

                Prints each valid model's name, version, version hash and entities. For an
                invalid model, prints every problem with its file, line, column and JSON path,
                and exits with status 1.

                USAGE: objectgraph validate <models> ...

                ARGUMENTS:
                  <models>                The model files to check.

                OPTIONS:
                  -h, --help              Show help information.

                """)
    }

    @Test func schemaHelpDescribesItsArgument() {
        #expect(
            ObjectGraphCommand.helpMessage(for: SchemaCommand.self, columns: 80) == """
                OVERVIEW: Print the SQL schema the SQLite store creates for a model.

                USAGE: objectgraph schema <model>

                ARGUMENTS:
                  <model>                 The model file.

                OPTIONS:
                  -h, --help              Show help information.

                """)
    }

    @Test func noArgumentsShowsTheRootHelp() throws {
        var command = try ObjectGraphCommand.parseAsRoot([])
        #expect(command is ObjectGraphCommand)
        let error = try #require(throws: (any Error).self) { try command.run() }
        #expect(ObjectGraphCommand.fullMessage(for: error) == ObjectGraphCommand.helpMessage())
        #expect(ObjectGraphCommand.exitCode(for: error) == .success)
    }

    @Test(arguments: [
        (["validate"], "Error: Missing expected argument '<models> ...'"),
        (["schema"], "Error: Missing expected argument '<model>'"),
        (["schema", "A.json", "B.json"], "Error: Unexpected argument 'B.json'"),
        (["verify", "A.json"], "Error: 2 unexpected arguments: 'verify', 'A.json'"),
        (["--verbose"], "Error: Unknown option '--verbose'")
    ])
    func reportsParsingErrors(arguments: [String], message: String) throws {
        let error = try #require(throws: (any Error).self) { try ObjectGraphCommand.parseAsRoot(arguments) }
        #expect(ObjectGraphCommand.fullMessage(for: error).hasPrefix(message + "\n"))
        #expect(ObjectGraphCommand.exitCode(for: error) == .validationFailure)
    }
}
