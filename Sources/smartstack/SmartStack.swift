import ArgumentParser
import SmartStackKit

/// The `smartstack` command: a laboratory for the iPhone Smart Stack.
///
/// Exit codes follow sysexits(3): 0 success, 64 bad usage, 65 bad input data,
/// 66 an input file that cannot be opened, 73 an output that cannot be created.
@main
struct SmartStack: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "smartstack",
    abstract: "A laboratory for the iPhone Smart Stack: donation logs, relevance, ranking strategies.",
    version: SmartStackKit.version,
    subcommands: [
      BatchCommand.self, ReplayCommand.self, SimulateCommand.self, ValidateCommand.self,
      RelevanceCommand.self, ImportCommand.self, StrategiesCommand.self, ReportCommand.self,
      MergeCommand.self, BenchCommand.self,
    ]
  )

  /// ArgumentParser's entry point, after one check it cannot word well itself.
  static func main() async {
    if let problem = ImportCommand.unknownFormatProblem(Array(CommandLine.arguments.dropFirst())) {
      StandardError.write(
        "Error: \(problem)\nUsage: smartstack import <subcommand>\n"
          + "  See 'smartstack import --help' for more information.")
      exit(withError: Exit.usage)
    }
    await main(nil)
  }
}
