import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack merge DIR...`: combines shard folders into the files one run writes.
struct MergeCommand: AsyncParsableCommand, RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the folders of 'smartstack batch --shard K/N' runs into one report.",
    discussion: """
      Reads the journals (.journal/*.jsonl) of every folder, checks that they come from \
      the same experiment (config hash) and hold every cell exactly once, and writes \
      runs.csv, daily.csv, summary.csv, paired.csv, manifest.json (and trace.csv when the \
      experiment traces, tuning.csv when it tunes: the shards' own, which must agree) into \
      --out: byte for byte the CSVs a single run writes. The input files are not needed.

      Examples:
        smartstack batch Datasets/experiments/tiny.json --shard 1/3 --out out/shard-1
        smartstack batch Datasets/experiments/tiny.json --shard 2/3 --out out/shard-2
        smartstack batch Datasets/experiments/tiny.json --shard 3/3 --out out/shard-3
        smartstack merge out/shard-1 out/shard-2 out/shard-3 --out out/all
      """)

  @Argument(help: ArgumentHelp("Folders written by 'smartstack batch --shard'.", valueName: "dir"))
  var directories: [String]

  @Option(help: "Output folder.")
  var out: String = "reports"

  @Option(parsing: .unconditional, help: "Statistics computed in parallel (default: the cores this process may use).")
  var jobs: Int = AvailableCores.count

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Replace the reports of another run in --out (only the files its manifest.json lists are removed).")
  var overwrite = false

  func validate() throws {
    guard !directories.isEmpty else { throw ValidationError("give at least one folder to merge") }
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    if out.isEmpty { throw ValidationError("--out needs a folder name") }
  }

  func run(registry: StrategyRegistry) async throws {
    let clock = ContinuousClock()
    let start = clock.now
    let report = try await reportingBatchErrors {
      try await BatchMerge.merge(directories, into: out, jobs: jobs, overwrite: overwrite)
    }
    guard !quiet else { return }
    for note in report.notes { StandardError.write("note: \(note)") }
    try BatchCommand.printTables(directory: report.directory, registry: registry, verbose: false)
    StandardError.write(
      "merged \(report.cellsInOutputs) cells of \(report.outline.name) from \(directories.count) folder(s) into \(report.directory)/: \(report.files.joined(separator: ", ")) (\(ProgressReporter.duration(ProgressReporter.seconds(clock.now - start))))"
    )
  }
}
