import ArgumentParser
import SmartStackKit

/// The `smartstack` command-line tool, every command included, for any set of strategies.
///
/// A tool of one's own with one's own strategies is a `main.swift` of a few lines:
///
/// ```swift
/// import SmartStackCommands
/// import SmartStackKit
///
/// var registry = StrategyRegistry.builtIn
/// registry.register(MyStrategy.self)
/// await SmartStack.main(registry: registry)
/// ```
///
/// Every command that names, lists or labels strategies (`batch` and its configs,
/// `replay`, `simulate`, `bench`, `strategies`, `report`, `merge`) uses `registry`, and
/// nothing else: the default strategy list of `replay`, `simulate` and `bench` is all of
/// its strategies, in registration order. Exit codes follow sysexits(3): 0 success, 64 bad
/// usage, 65 bad input data, 66 an input file that cannot be opened, 73 an output that
/// cannot be created; `bench` also exits 1 on a slowdown.
public enum SmartStack {
  /// Runs the tool on the process's command-line arguments with `registry`; returns on
  /// success and exits the process with the command's exit code otherwise.
  public static func main(registry: StrategyRegistry) async {
    await main(registry: registry, arguments: Array(CommandLine.arguments.dropFirst()))
  }

  /// Runs the tool on `arguments` (without the program name) with `registry`; returns on
  /// success and exits the process otherwise, writing the message ArgumentParser would
  /// (help and `--version` exit 0).
  public static func main(registry: StrategyRegistry, arguments: [String]) async {
    if let problem = ImportCommand.unknownFormatProblem(arguments) {
      RootCommand.exitWithUsageError(problem, command: ImportCommand.self)
    }
    let command: ParsableCommand
    do {
      command = try await RootCommand.asyncParseAsRoot(arguments)
    } catch {
      RootCommand.exit(withError: error)
    }
    // ArgumentParser's own `main` reports a `ValidationError` thrown by `run()` with the
    // root's usage ("smartstack <subcommand>"); report it with the usage of the command
    // that ran. Every other error goes to ArgumentParser as before.
    do {
      try await execute(command, registry: registry)
    } catch let error as ValidationError {
      RootCommand.exitWithUsageError(error.message, command: type(of: command))
    } catch {
      RootCommand.exit(withError: error)
    }
  }

  /// Parses `arguments` (without the program name) and runs the command they name with
  /// `registry`, in this process, throwing instead of exiting: for tests and for tools
  /// that embed the commands.
  ///
  /// - Throws: ArgumentParser's parse errors and `CleanExit` (help, `--version`), a
  ///   `ValidationError` for bad usage found while running, and `ExitCode` for the
  ///   other failures, whose message the command has already written to standard error.
  public static func run(registry: StrategyRegistry, arguments: [String]) async throws {
    if let problem = ImportCommand.unknownFormatProblem(arguments) {
      throw ValidationError(problem)
    }
    try await execute(try await RootCommand.asyncParseAsRoot(arguments), registry: registry)
  }

  /// Runs a parsed command: `run(registry:)` for a `RegistryCommand`, `run()` otherwise.
  static func execute(_ command: ParsableCommand, registry: StrategyRegistry) async throws {
    if let command = command as? any RegistryCommand {
      try await command.run(registry: registry)
    } else if var command = command as? AsyncParsableCommand {
      try await command.run()
    } else {
      var command = command
      try command.run()
    }
  }
}

/// A command whose work depends on the strategies the tool knows (it parses, lists or
/// labels them): `SmartStack` calls `run(registry:)` with the tool's registry instead of
/// `run()`.
///
/// Why a parameter: ArgumentParser makes a command from the command line alone (it
/// decodes every stored property from the arguments), so a value the program chooses
/// cannot be stored in the command; it is passed to the command once parsed. That keeps
/// the registry an explicit value from `SmartStack.main(registry:)` down to every parse
/// of a strategy name, with no global or task-local state, and two tools (or two tests)
/// with different registries can run in one process.
protocol RegistryCommand: ParsableCommand {
  /// Does the command's work with `registry` as the only source of strategies.
  func run(registry: StrategyRegistry) async throws
}

extension RegistryCommand {
  /// ArgumentParser's entry point (sync or async), which has no registry to give:
  /// `SmartStack` never calls it, and calling it is a programming error.
  mutating func run() throws {
    preconditionFailure(
      "\(Self.self) runs through SmartStack.main(registry:), which passes the registry")
  }
}
