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
      exitWithUsageError(problem, command: ImportCommand.self)
    }
    // ArgumentParser's own `main` reports a `ValidationError` thrown by `run()` with the
    // root's usage ("smartstack <subcommand>"); report it with the usage of the command
    // that ran. Every other error goes to ArgumentParser as before.
    let command: ParsableCommand
    do {
      command = try await asyncParseAsRoot(nil)
    } catch {
      exit(withError: error)
    }
    do {
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        var command = command
        try command.run()
      }
    } catch let error as ValidationError {
      exitWithUsageError(error.message, command: type(of: command))
    } catch {
      exit(withError: error)
    }
  }

  /// Writes `message` with the usage and help path of `command`, in ArgumentParser's
  /// layout (`Error: …`, `Usage: smartstack replay …`, `  See 'smartstack replay --help' …`),
  /// and exits with 64.
  static func exitWithUsageError(_ message: String, command: ParsableCommand.Type) -> Never {
    let path = commandPath(to: command) ?? ["smartstack"]
    let usage = usageString(for: command).replacingOccurrences(of: "\n", with: "\n       ")
    StandardError.write(
      "Error: \(message)\nUsage: \(usage)\n  See '\(path.joined(separator: " ")) --help' for more information.")
    exit(withError: Exit.usage)
  }

  /// The command names from the root to `target` ("smartstack", "import", "lsapp"), or nil
  /// when `target` is not in the tree below `root`.
  static func commandPath(
    to target: ParsableCommand.Type, from root: ParsableCommand.Type = SmartStack.self
  ) -> [String]? {
    let name = root.configuration.commandName ?? String(describing: root)
    if ObjectIdentifier(root) == ObjectIdentifier(target) { return [name] }
    for child in root.configuration.subcommands {
      if let path = commandPath(to: target, from: child) { return [name] + path }
    }
    return nil
  }
}
