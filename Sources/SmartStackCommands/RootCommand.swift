import ArgumentParser
import SmartStackKit

/// The root of the command tree, `smartstack`: its name, help and subcommands.
///
/// Run through `SmartStack.main(registry:)`, never through ArgumentParser's own `main()`:
/// the commands that name strategies (`RegistryCommand`) need the registry it passes.
struct RootCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "smartstack",
    abstract: "A laboratory for the iPhone Smart Stack: donation logs, relevance, ranking strategies.",
    version: SmartStackKit.version,
    subcommands: [
      BatchCommand.self, ReplayCommand.self, SimulateCommand.self, EvaluateCommand.self, ValidateCommand.self,
      RelevanceCommand.self, ImportCommand.self, StrategiesCommand.self, ReportCommand.self,
      MergeCommand.self, BenchCommand.self, FitCommand.self,
    ]
  )

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
    to target: ParsableCommand.Type, from root: ParsableCommand.Type = RootCommand.self
  ) -> [String]? {
    let name = root.configuration.commandName ?? String(describing: root)
    if ObjectIdentifier(root) == ObjectIdentifier(target) { return [name] }
    for child in root.configuration.subcommands {
      if let path = commandPath(to: target, from: child) { return [name] + path }
    }
    return nil
  }
}
