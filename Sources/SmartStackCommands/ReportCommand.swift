import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack report [DIR]`: prints the tables of an existing output folder.
struct ReportCommand: RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Print the Markdown tables of a batch output folder.",
    discussion: """
      Prints what 'smartstack batch' printed when it finished: the main metrics per source \
      and strategy (means over replicates, from runs.csv), then, when summary.csv and \
      paired.csv are present, per-unit means with 95% bootstrap CIs and the paired \
      differences from the baseline. Every file is first checked against the size and \
      hash manifest.json gives it: a folder whose files do not match (a mix of two runs, \
      a changed file) is refused with exit 65, naming the file.
      """)

  @Argument(
    help: ArgumentHelp(
      "A folder written by 'smartstack batch' or 'smartstack merge'.", valueName: "dir"))
  var directory: String = "reports"

  func run(registry: StrategyRegistry) throws {
    try BatchCommand.printTables(directory: directory, registry: registry)
  }
}
