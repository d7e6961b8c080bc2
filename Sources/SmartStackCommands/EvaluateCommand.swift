import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack evaluate`: off-policy estimates of strategies from an exposure log, or the
/// estimators' validation on a simulated scenario.
struct EvaluateCommand: AsyncParsableCommand, RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract: "Estimate strategies' tap and hit rates from an exposure log (DM, IPS, SNIPS, DR), or validate the estimators.",
    discussion: """
      With --exposures, writes estimates.csv: per target strategy, estimator and metric, \
      the estimate, its 95 % bootstrap interval over people, the effective sample size and \
      the share of visits where the target chose a widget the logging policy could not show. \
      With --validate, simulates the scenario under each logging strategy and each target \
      (the same people), and writes validation.csv: each estimator's bias, RMSE and interval \
      coverage against the targets' on-policy truth. The folder gets a manifest.json; one       holding another run's reports is refused unless --overwrite. `smartstack report DIR`       prints the table. See docs/counterfactual.md.

      Examples:
        smartstack simulate --scenario Datasets/scenarios/tiny.json --strategy random --out reports/logging --emit-exposures exposures.csv
        smartstack evaluate --exposures exposures.csv --strategy mfu,mru --out reports/evaluate
        smartstack evaluate --exposures Datasets/exposures/field-study.csv --strategy mfu,static --timezone Europe/Berlin --out reports/field-study
        smartstack evaluate --validate Datasets/scenarios/tiny.json --strategy static,mfu,mru --replicates 10 --out reports/validation-tiny
      """)

  @Option(help: "The exposure log (CSV) to estimate from.")
  var exposures: String?

  @Option(name: .customLong("validate"), help: "A scenario JSON file: validate the estimators on it instead of reading a log.")
  var scenario: String?

  @Option(help: "Target strategies, comma-separated, each NAME or NAME:PARAM=VALUE:...")
  var strategy: [String] = ["mfu,mru,hour-of-week,static"]

  @Option(help: "With --validate: logging strategies, comma-separated (stochastic ones, with stated probabilities).")
  var logging: [String] = ["random"]

  @Option(parsing: .unconditional, help: "With --validate: replicates (independent draws of the people).")
  var replicates: Int = 10

  @Option(parsing: .unconditional, help: "With --validate: days to simulate (default: the scenario's).")
  var days: Int?

  @Flag(
    name: .customLong("no-history-rules"),
    help: "With --validate: turn off the stack rules that depend on what was shown before (the rotation limit, as in developer mode; swipe pins, by a 0-minute cooldown), so that one visit's display does not decide later ones (docs/counterfactual.md, \"Validation\").")
  var noHistoryRules = false

  @Option(help: "The people's IANA time zone, for local-time features and the reward model (with --exposures).")
  var timezone: String = "UTC"

  @Option(help: "With --exposures: relevance timelines (JSON, as replay --timelines) of the log's instances, for targets that read relevance.")
  var timelines: String?

  @Option(parsing: .unconditional, help: "Seed of the bootstrap (and, with --validate, of the simulation; default: the scenario's).")
  var seed: UInt64?

  @Option(help: "Output folder (created if needed).")
  var out: String = "reports/evaluate"

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Replace the reports of another run in --out (only the files its manifest.json lists are removed). Without it such a folder is refused; the same command run again replaces its own reports.")
  var overwrite = false

  static let files = ["estimates.csv", "validation.csv", "manifest.json"]

  /// The input files named on the command line (refused inside --out, listed with their
  /// hashes in manifest.json).
  var inputs: [String] { [exposures, timelines, scenario].compactMap { $0 } }

  func validate() throws {
    guard (exposures == nil) != (scenario == nil) else {
      throw ValidationError("give exactly one of --exposures LOG and --validate SCENARIO")
    }
    guard (2...1000).contains(replicates) else {
      throw ValidationError("--replicates must be within 2...1000 (a bias interval needs at least two)")
    }
    if let days, !(1...366).contains(days) { throw ValidationError("--days must be within 1...366") }
    if noHistoryRules && scenario == nil { throw ValidationError("--no-history-rules goes with --validate") }
    if timelines != nil && exposures == nil { throw ValidationError("--timelines goes with --exposures") }
  }

  func run(registry: StrategyRegistry) async throws {
    let targets: [StrategyChoice]
    let loggers: [StrategyChoice]
    do {
      targets = try strategy.flatMap { try registry.parseList($0) }
      loggers = try logging.flatMap { try registry.parseList($0) }
      for logger in loggers { try ExposureRun.check(logger) }
    } catch let error as StrategyError {
      throw ValidationError(error.description)
    }
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError("unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin or UTC)")
    }
    try OutputFolder.check(out, files: Self.files, inputs: inputs)
    let (claim, manifest) = try OutputFolder.claim(out, run: "evaluate", inputs: inputs, overwrite: overwrite)
    /// Publishes one file and the manifest into `out` under the folder's lock, as one set
    /// (`OutputSet`: all or nothing), replacing the previous set of the same run or, with
    /// --overwrite, another run's.
    func publish(_ name: String, _ text: String) throws {
      let held = try OutputFolder.lock(out, files: Self.files)
      var published = false
      defer { held.release(kept: published) }
      try reportingErrors {
        try OutputFolder.publish(
          [OutputSet.File(name: name, text: text)], into: held, claim: claim, manifest: manifest, jobs: 1,
          files: Self.files)
      }
      published = true
    }
    if let exposures {
      let log = try reportingErrors { try ExposureLog.read(path: exposures) }
      let timelineFile = try timelines.map { path in try reportingErrors { try TimelineFile.read(path: path, timeZone: zone) } }
      let rows = try replayingErrors(exposures) {
        let plan = try TargetChoices.plan(log, zone: zone, timelines: timelineFile)
        let choices = try targets.map {
          (label: $0.descriptor.label, choices: try TargetChoices.choices($0, plan: plan, log: log))
        }
        return OffPolicyEvaluation.estimates(log, targets: choices, zone: zone, seed: seed ?? 0)
      }
      try publish("estimates.csv", OffPolicyEvaluation.csv(rows, loggingStrategy: log.loggingStrategy))
      if !quiet {
        StandardError.write(
          "estimated \(targets.count) strateg\(targets.count == 1 ? "y" : "ies") from \(log.exposures.count) visits "
            + "of \(log.people.count) people logged by '\(log.loggingStrategy)'; wrote \(out)/estimates.csv")
      }
    } else if let path = scenario {
      var scenario = try reportingErrors { try Scenario.read(path: path) }
      if noHistoryRules {
        scenario.stack.developerMode = true
        scenario.stack.swipeCooldownMinutes = 0
      }
      var options = SimulationOptions()
      options.days = days
      let rows = try replayingErrors(path) {
        try EstimatorValidation.run(
          scenario, logging: loggers, targets: targets, replicates: replicates, seed: seed ?? scenario.seed,
          options: options)
      }
      let label = scenario.name + (noHistoryRules ? ":no-history-rules" : "")
      try publish("validation.csv", EstimatorValidation.csv(rows, scenario: label))
      if !quiet {
        let ips = rows.filter { $0.estimator == .ips }
        StandardError.write(
          "validated 4 estimators × \(targets.count) target(s) × \(loggers.count) logging strateg\(loggers.count == 1 ? "y" : "ies") "
            + "over \(replicates) replicate(s) of \(label); IPS unbiased within its interval in "
            + "\(ips.filter(\.unbiasedWithinInterval).count) of \(ips.count) rows (family-wise: "
            + "\(ips.filter(\.unbiasedFamilyWise).count) of \(ips.count)); wrote \(out)/validation.csv")
      }
    }
  }

  /// `body`, a replay of the targets over `file`'s visits failing as a data error (exit
  /// 65, `FILE: message`) rather than a crash.
  func replayingErrors<T>(_ file: String, _ body: () throws -> T) throws -> T {
    do {
      return try reportingErrors(body)
    } catch let error as ReplayError {
      StandardError.write("\(file): \(error.description)")
      throw Exit.dataError
    }
  }

}
