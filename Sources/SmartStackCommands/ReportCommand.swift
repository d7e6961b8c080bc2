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
      differences from the baseline.
      """)

  @Argument(
    help: ArgumentHelp(
      "A folder written by 'smartstack batch' or 'smartstack merge'.", valueName: "dir"))
  var directory: String = "reports"

  func run(registry: StrategyRegistry) throws {
    try reportingErrors {
      let runsPath = directory + "/runs.csv"
      let runs = try CSVTable.read(bytes: FileIO.readBytes(runsPath), file: runsPath)
      func optional(_ name: String) throws -> CSVTable? {
        let path = directory + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try CSVTable.read(bytes: FileIO.readBytes(path), file: path)
      }
      StandardOutput.write(
        try ReportTables.markdown(
          runs: runs, summary: optional("summary.csv"), paired: optional("paired.csv"),
          registry: registry))
    }
  }
}
