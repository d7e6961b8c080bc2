import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack report [DIR]`: prints the tables of an existing output folder.
struct ReportCommand: RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Print the Markdown tables of a report folder.",
    discussion: """
      Prints what 'smartstack batch' printed when it finished: a compact summary (per-unit \
      means of hit_rate, mrr and rotations_per_day, a table per metric); with --verbose, \
      the main metrics per source and strategy (means over replicates, from runs.csv), \
      per-unit means with 95% bootstrap CIs and the paired differences from the baseline, \
      each table with a caption. A replay or simulate folder (runs.csv only) gets the \
      runs table. A report set \
      that a killed run left half moved into place is first moved in (when no run holds \
      the folder). Every \
      file is first checked against the size and hash manifest.json gives it: a folder \
      whose files do not match (a mix of two runs, a changed file) is refused with exit \
      65, naming the file.

      With --metric (and --top N), prints instead the N best strategy points per source \
      by that metric, with 95% CIs, from summary.csv (a batch or merge folder).

      Examples:
        smartstack batch --log Datasets/logs/tiny.csv --visits sessions:5 \\
          --strategy mfu,hour-of-week,oracle
        smartstack report reports/tiny
        smartstack report reports/tiny --verbose
        smartstack report reports/tiny --metric hit_rate --top 3
      """)

  @Argument(
    help: ArgumentHelp(
      "A folder written by 'smartstack batch', 'merge', 'replay' or 'simulate'.", valueName: "dir"))
  var directory: String = "reports"

  @Flag(help: "Print every table (pooled rates, per-unit means with CIs, paired differences) instead of the compact summary.")
  var verbose = false

  @Option(help: "Rank the strategy points of each source by this metric of summary.csv (hit_rate, mrr, coverage, …).")
  var metric: String?

  @Option(parsing: .unconditional, help: "With --metric: only the N best per source (default: all).")
  var top: Int?

  func validate() throws {
    if let top, top < 1 { throw ValidationError("--top must be at least 1") }
    if top != nil && metric == nil { throw ValidationError("--top needs --metric, e.g. --metric hit_rate --top 3") }
  }

  func run(registry: StrategyRegistry) throws {
    guard let metric else {
      return try BatchCommand.printTables(directory: directory, registry: registry, verbose: verbose)
    }
    do {
      try reportingErrors {
        let files = try ManifestCheck.read(directory)
        guard let file = files.first(where: { $0.name == "summary.csv" }) else {
          throw InputFileError(
            path: directory + "/summary.csv",
            reason:
              "no such file in the folder's manifest: confidence intervals come from 'smartstack batch' (a replay or simulate folder has none; 'smartstack batch --log FILE --strategy a,b,c' makes one)")
        }
        let summary = try CSVTable.read(bytes: file.bytes, file: directory + "/summary.csv")
        StandardOutput.write(try TopTable.markdown(summary: summary, metric: metric, top: top, registry: registry))
      }
    } catch let error as ReportUsageError {
      throw ValidationError(error.description)
    } catch let error as BatchError {
      StandardError.write("error: \(error.description)")
      throw Exit.dataError
    }
  }
}
