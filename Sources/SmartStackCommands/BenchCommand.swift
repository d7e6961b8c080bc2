import ArgumentParser
import Foundation
import SmartStackBench
import SmartStackKit

/// `smartstack bench`: measures the engine and the log readers on the reference workload.
///
/// Exit codes: 0 measured (and, with `--baseline`, no gross slowdown); 1 a measurement is
/// more than `--max-slowdown` times slower than the baseline; 64 bad usage; 65 a baseline
/// that is not a `bench --json` object of the same workload and build; 66 a baseline
/// that cannot be read.
struct BenchCommand: RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure simulation speed per strategy, donation-log ingest speed and peak memory.",
    discussion: """
      Runs the reference workload in-process (docs/performance.md): simulated people with \
      ~90 visits and ~30 donations a day, stacks of 10 instances and relevance timelines, \
      driven through the engine as replay does, then reads a generated donation log of \
      1,000,000 rows as CSV and as JSON Lines. Generating the inputs is not timed.

      Measure a release build on one core for numbers worth comparing:
        swift build -c release
        taskset -c 1 .build/release/smartstack bench --json

      CI: --quick (under 10 s) with --baseline fails only on a gross slowdown:
        .build/release/smartstack bench --quick --baseline Benchmarks/baseline.json
      """)

  @Option(parsing: .unconditional, help: "Simulated people (default: 1000; 200 with --quick).")
  var people: Int?

  @Option(parsing: .unconditional, help: "Days per person (default: 28; 14 with --quick).")
  var days: Int?

  @Option(help: "Strategies, comma-separated, each NAME or NAME:PARAM=VALUE:... (default: every built-in one).")
  var strategy: [String] = []

  @Option(name: .customLong("ingest-rows"), parsing: .unconditional, help: "Rows of the generated ingest log (default: 1000000; 250000 with --quick).")
  var ingestRows: Int?

  @Flag(name: .customLong("no-relevance"), help: "Stacks without relevance timelines (default: with).")
  var noRelevance = false

  @Option(parsing: .unconditional, help: "Seed of the generated workload.")
  var seed: UInt64 = 1

  @Option(help: "Measure everything N times and keep the fastest (default: 1; 3 with --quick).")
  var `repeat`: Int?

  @Flag(help: "A small workload for CI: 200 people x 14 days, 250,000 ingest rows, best of 3.")
  var quick = false

  @Flag(help: "Print one JSON object instead of the table.")
  var json = false

  @Option(help: "A 'bench --json' output to compare with: exit 1 when a measurement is more than --max-slowdown times slower.")
  var baseline: String?

  @Option(name: .customLong("max-slowdown"), parsing: .unconditional, help: "The slowdown factor against --baseline that fails.")
  var maxSlowdown: Double = 3

  @Flag(help: "Print nothing but the result (no progress on standard error).")
  var quiet = false

  var workload: BenchWorkload {
    var w = quick ? BenchWorkload.quick : BenchWorkload.standard
    if let people { w.people = people }
    if let days { w.days = days }
    if let ingestRows { w.ingestRows = ingestRows }
    w.seed = seed
    if noRelevance { w.relevance = false }
    return w
  }

  func validate() throws {
    if let problem = workload.problems.first { throw ValidationError(problem) }
    if let r = `repeat`, r < 1 || r > 100 { throw ValidationError("--repeat must be within 1...100") }
    guard maxSlowdown >= 1, maxSlowdown.isFinite else { throw ValidationError("--max-slowdown must be a number >= 1") }
  }

  func run(registry: StrategyRegistry) throws {
    let choices: [StrategyChoice]
    do {
      choices =
        strategy.isEmpty ? try registry.allWithDefaults() : try strategy.flatMap { try registry.parseList($0) }
    } catch let error as StrategyError {
      throw ValidationError(error.description)
    }
    let baselineBytes = try baseline.map { path in try reportingErrors { try FileIO.readBytes(path) } }
    var report = try Bench.run(
      workload, strategies: choices, repetitions: `repeat` ?? (quick ? 3 : 1),
      progress: { line in if !quiet { StandardError.write("bench: \(line)") } })
    report.quick = quick
    StandardOutput.write(json ? report.json.serialized(pretty: true) + "\n" : report.text)
    guard let baseline, let baselineBytes else { return }
    let regressions = try reportingErrors {
      try report.regressions(againstBaseline: baselineBytes, file: baseline, factor: maxSlowdown)
    }
    if regressions.isEmpty {
      if !quiet {
        StandardError.write("bench: no measurement is more than \(NumberFormat.format(maxSlowdown))x slower than \(baseline)")
      }
      return
    }
    for message in regressions { StandardError.write("bench: regression: \(message)") }
    throw ExitCode.failure
  }
}
