import ArgumentParser
import Foundation

/// What a subcommand produced: the text for standard output and standard error, and the exit
/// status. Commands compute it as a value so tests can check it without starting a process.
struct CommandOutput: Equatable {
    /// The text for standard output, with its final newline.
    var standardOutput = ""
    /// The text for standard error, with its final newline.
    var standardError = ""
    /// The status the process ends with.
    var exitCode = ExitCode.success
}

/// A subcommand whose work is a function from its parsed arguments to a `CommandOutput`;
/// `run()` only writes that output out.
protocol ReportingCommand: ParsableCommand {
    /// Does the command's work and returns everything it would print, and its exit status.
    func output() -> CommandOutput
}

extension ReportingCommand {
    func run() throws {
        let result = output()
        print(result.standardOutput, terminator: "")
        // Problems go to standard error so they never end up in a redirected output file.
        if !result.standardError.isEmpty { FileHandle.standardError.write(Data(result.standardError.utf8)) }
        // ArgumentParser ends the process with this status without printing anything more.
        if result.exitCode != .success { throw result.exitCode }
    }
}
