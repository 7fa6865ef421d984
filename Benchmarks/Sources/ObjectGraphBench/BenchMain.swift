import Foundation

/// `objectgraph-bench`: the driver, or (with `--child-request`) one measured child process.
@main
enum BenchMain {
    static func main() {
        // M2, the migration benchmark, has a driver of its own (see MigrationBenchmark).
        if CommandLine.arguments.dropFirst().first?.hasPrefix("--migration") == true {
            do {
                exit(try MigrationBenchmark.main(Array(CommandLine.arguments.dropFirst())) ? 0 : 1)
            } catch {
                printError("error: \(error)\n")
                exit(2)
            }
        }
        // Issue 19's controller workloads, likewise (see ControllerBenchmark).
        if CommandLine.arguments.dropFirst().first == "--controller" {
            do {
                exit(try ControllerBenchmark.main(Array(CommandLine.arguments.dropFirst())) ? 0 : 1)
            } catch {
                printError("error: \(error)\n")
                exit(2)
            }
        }
        // Issue 17's backup under load, likewise (see BackupUnderLoadBenchmark).
        if CommandLine.arguments.dropFirst().first == "--backup-under-load" {
            do {
                exit(try BackupUnderLoadBenchmark.main(Array(CommandLine.arguments.dropFirst())) ? 0 : 1)
            } catch {
                printError("error: \(error)\n")
                exit(2)
            }
        }
        // Issue 20's remote change latency, likewise (see RemoteChangeLatencyBenchmark).
        if CommandLine.arguments.dropFirst().first?.hasPrefix("--remote-change-latency") == true {
            do {
                exit(try RemoteChangeLatencyBenchmark.main(Array(CommandLine.arguments.dropFirst())) ? 0 : 1)
            } catch {
                printError("error: \(error)\n")
                exit(2)
            }
        }
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch let error as OptionError {
            if let message = error.message { printError("error: \(message)\n") }
            printError(Options.usage + "\n")
            exit(error.message == nil ? 0 : 64)
        } catch {
            printError("error: \(error)\n")
            exit(64)
        }

        do {
            if let request = options.childRequest {
                switch request.task {
                case .prepare:
                    try Worker.prepare(request)
                case .run:
                    let result = try Worker.run(request)
                    print(Worker.resultMarker + String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
                }
                exit(0)
            }
            exit(try Driver(options: options).run() ? 0 : 1)
        } catch {
            printError("error: \(error)\n")
            exit(2)
        }
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
