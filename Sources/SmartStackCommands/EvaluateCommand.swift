import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack evaluate`: off-policy estimates of strategies from an exposure log, or the
/// estimators' validation on a simulated scenario.
struct EvaluateCommand: AsyncParsableCommand, RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract: "Estimate strategies' tap and hit rates from an exposure log (rule replay rr/rr-dr; DM, IPS, SNIPS, DR; pdis-1h), or validate the estimators.",
    discussion: """
      With --exposures, writes estimates.csv: per target strategy, estimator and metric, \
      the estimate, its 95 % bootstrap interval over people, the effective sample size, the \
      share of visits where the target chose a widget the logging policy could not show, and \
      a note; and checks.csv, model-free checks that the display did not change later wants \
      or visit rates. dm, ips, snips and dr estimate a one-visit deviation from the logger's \
      state; pdis-1h switching to the target for an hour; rr and rr-dr the on-policy value by \
      rule replay: each target re-run through the stack's rules over each person rebuilt from \
      a version-2 log and its sidecar (NAME.sidecar.json, written by simulate \
      --emit-exposures). Rule replay assumes: visits, wants and timelines do not depend on \
      what is shown; people respond with fixed per-person probabilities; the rules and their \
      settings are known. With --validate, simulates the scenario under each logging \
      strategy and each target (the same people), and writes validation.csv: each \
      estimator's bias, RMSE and interval coverage against the targets' on-policy truth. The \
      folder gets a manifest.json; one holding another run's reports is refused unless \
      --overwrite. `smartstack report DIR` prints the table. See docs/counterfactual.md.

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

  @Option(
    help: ArgumentHelp(
      "Estimators, comma-separated: dm, ips, snips, dr (one-visit deviation), rr, rr-dr (on-policy value by rule replay), rr-no-rules (ablation).",
      discussion: "Default: dm,ips,snips,dr,rr,rr-dr, with rr and rr-dr only where the log supports them (version 2 with its sidecar)."))
  var estimator: String?

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

  @Option(help: "With --exposures: the log's sidecar for rule replay (default: NAME.sidecar.json beside NAME.csv, when it exists).")
  var sidecar: String?

  @Option(help: "With --exposures: the people's context changes (CSV or JSON Lines; docs/context.md), for targets that read context (default: the file the sidecar names, when it names one).")
  var context: String?

  @Option(parsing: .unconditional, help: "Seed of the bootstrap (and, with --validate, of the simulation; default: the scenario's).")
  var seed: UInt64?

  @Option(help: "Output folder (created if needed).")
  var out: String = "reports/evaluate"

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Replace the reports of another run in --out (only the files its manifest.json lists are removed). Without it such a folder is refused; the same command run again replaces its own reports.")
  var overwrite = false

  static let files = ["estimates.csv", "validation.csv", "checks.csv", "manifest.json"]

  /// The input files named on the command line (refused inside --out, listed with their
  /// hashes in manifest.json).
  var inputs: [String] { [exposures, timelines, context, scenario, sidecarPath].compactMap { $0 } }

  /// The sidecar to read: `--sidecar`, or the one beside the log when it exists.
  var sidecarPath: String? {
    if let sidecar { return sidecar }
    guard let exposures else { return nil }
    let beside = ExposureSidecar.path(besideLog: exposures)
    return FileManager.default.fileExists(atPath: beside) ? beside : nil
  }

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
    if context != nil && exposures == nil { throw ValidationError("--context goes with --exposures") }
    if sidecar != nil && exposures == nil { throw ValidationError("--sidecar goes with --exposures") }
  }

  /// The estimators asked for, or nil for the default.
  func requestedEstimators() throws -> [OffPolicyEstimator]? {
    guard let estimator else { return nil }
    var list: [OffPolicyEstimator] = []
    for name in estimator.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
      guard let e = OffPolicyEstimator(rawValue: name) else {
        let names = OffPolicyEstimator.allCases.map(\.rawValue)
        let hint = names.first { $0.lowercased() == name.lowercased() }.map { " (did you mean '\($0)'?)" } ?? ""
        throw ValidationError("unknown estimator '\(name)'\(hint); known: \(names.joined(separator: ", "))")
      }
      if !list.contains(e) { list.append(e) }
    }
    return list
  }

  func run(registry: StrategyRegistry) async throws {
    let estimators = try requestedEstimators()
    let targets: [StrategyChoice]
    let loggers: [StrategyChoice]
    do {
      targets = try strategy.flatMap { try registry.parseList($0) }
      loggers = try logging.flatMap { try registry.parseList($0) }
      for logger in loggers { try ExposureRun.check(logger) }
    } catch let error as StrategyError {
      throw ValidationError(error.description)
    }
    // Rule replay and the estimators give strategies no outside scores (yet): `scores`
    // would rank every candidate as unscored, so it is refused rather than run wrongly.
    if (targets + loggers).contains(where: { $0.type.name == ScoresStrategy.name }) {
      throw ValidationError(
        "strategy '\(ScoresStrategy.name)' ranks by an outside model's scores, which only replay and batch read (--scores FILE)")
    }
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError("unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin or UTC)")
    }
    try OutputFolder.check(out, files: Self.files, inputs: inputs)
    let (claim, manifest) = try OutputFolder.claim(out, run: "evaluate", inputs: inputs, overwrite: overwrite)
    // The folder is locked from the start, not only while publishing: another run (a
    // batch, another evaluate) is refused at once instead of being overwritten later.
    let held = try OutputFolder.lock(out, files: Self.files)
    var published = false
    defer { held.release(kept: published) }
    /// Publishes the report files and the manifest into `out` as one set (`OutputSet`:
    /// all or nothing), replacing the previous set of the same run or, with --overwrite,
    /// another run's.
    func publish(_ name: String, _ text: String, _ more: [OutputSet.File] = []) throws {
      try reportingErrors {
        try OutputFolder.publish(
          [OutputSet.File(name: name, text: text)] + more, into: held, claim: claim, manifest: manifest, jobs: 1,
          files: Self.files)
      }
      published = true
    }
    if let exposures {
      let log = try reportingErrors { try ExposureLog.read(path: exposures) }
      let timelineFile = try timelines.map { path in try reportingErrors { try TimelineFile.read(path: path, timeZone: zone) } }
      // Rule replay needs a version-2 log and its sidecar: asked for explicitly without
      // them, refused at the header; by default, left out with a word.
      var chosen = estimators ?? OffPolicyEstimator.standard
      let wantsRuleReplay = chosen.contains(where: \.isRuleReplay)
      let readsContext = targets.contains { $0.type.info.needs.contains(.context) }
      var world: ExposureSidecar? = nil
      if (wantsRuleReplay || (readsContext && context == nil)) && log.version == 2, let path = sidecarPath {
        world = try reportingErrors { try ExposureSidecar.read(path: path) }
      }
      let contextLog = try context.map { path in try reportingErrors { try ContextLog.read(path: path, zone: zone) } }
        ?? world?.context
      // A target that reads context would otherwise rank as if the person were nowhere.
      if readsContext && contextLog == nil, let target = targets.first(where: { $0.type.info.needs.contains(.context) }) {
        throw ValidationError(
          "strategy '\(target.descriptor.label)' reads context, and \(exposures) has none: give --context FILE, or a sidecar that names the people's context (simulate --emit-exposures writes one for a scenario with context)")
      }
      if let contextLog, world != nil { world!.context = contextLog }
      if wantsRuleReplay && world == nil {
        if estimators != nil {
          try Self.refuseRuleReplay(exposures, log: log, sidecar: sidecar)
        }
        chosen.removeAll(where: \.isRuleReplay)
        if !quiet {
          StandardError.write(
            log.version == 2
              ? "note: no sidecar beside \(exposures) (\(ExposureSidecar.path(besideLog: exposures))): rr and rr-dr left out"
              : "note: \(exposures) is a version-1 exposure log (no 'action' column): rr and rr-dr left out")
        }
      }
      let rows = try replayingErrors(exposures) {
        let plan = try TargetChoices.plan(
          log, zone: zone, kinds: world.map { Dictionary(uniqueKeysWithValues: $0.instances.map { ($0.id, $0.kind) }) } ?? [:],
          timelines: timelineFile ?? world?.timelines, context: contextLog)
        let replayed = try world.map { try RuleReplay.World(log: log, sidecar: $0, model: ResponseModel(log)) }
        let choices = try targets.map { target in
          OffPolicyEvaluation.Target(
            label: target.descriptor.label, choices: try TargetChoices.choices(target, plan: plan, log: log),
            ruleReplay: chosen.contains(.rr) || chosen.contains(.rrDR)
              ? try replayed.map { try RuleReplay.sums(target, world: $0, seed: seed ?? 0) } : nil,
            ruleReplayNoRules: chosen.contains(.rrNoRules)
              ? try replayed.map { try RuleReplay.sums(target, world: $0, seed: seed ?? 0, rulesOff: true) } : nil)
        }
        return OffPolicyEvaluation.estimates(log, targets: choices, estimators: chosen, zone: world?.zone ?? zone, seed: seed ?? 0)
      }
      let csv = OffPolicyEvaluation.csv(rows, loggingStrategy: log.loggingStrategy)
      let checks = ExposureCheck.all(log)
      try publish(
        "estimates.csv", csv, checks.isEmpty ? [] : [OutputSet.File(name: "checks.csv", text: ExposureCheck.csv(checks))])
      if !quiet {
        print(try EvaluationTable.estimates(csv))
        if log.people.count < 10 {
          StandardError.write(
            "warning: the intervals come from \(log.people.count) \(log.people.count == 1 ? "person" : "people") (a bootstrap over "
              + "people); with fewer than 10 they are too narrow and undercover: read them with care")
        }
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
      var checks = [[ExposureCheck]](repeating: [], count: loggers.count)
      let progress = ProgressReporter.Counter(
        ProgressReporter(label: "validate", unit: "replicates", quiet: quiet), total: replicates)
      let validated: Result<[ValidationRow], any Error>
      do {
        validated = .success(
          try await EstimatorValidation.run(
            scenario, logging: loggers, targets: targets, replicates: replicates, seed: seed ?? scenario.seed,
            options: options, estimators: estimators ?? OffPolicyEstimator.standard,
            onLog: { l, log in checks[l] += ExposureCheck.all(log) }, onReplicateDone: progress.tick))
      } catch {
        validated = .failure(error)
      }
      let rows = try replayingErrors(path) { try validated.get() }
      let label = scenario.name + (noHistoryRules ? ":no-history-rules" : "")
      let checkFile = EstimatorValidation.checksCSV(checks, logging: loggers.map(\.descriptor.label), scenario: label)
      try publish(
        "validation.csv", EstimatorValidation.csv(rows, scenario: label),
        checks.allSatisfy(\.isEmpty) ? [] : [OutputSet.File(name: "checks.csv", text: checkFile)])
      if !quiet {
        let ips = rows.filter { $0.estimator == .ips }
        StandardError.write(
          "validated \((estimators ?? OffPolicyEstimator.standard).count) estimators × \(targets.count) target(s) × \(loggers.count) logging strateg\(loggers.count == 1 ? "y" : "ies") "
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


  /// Refuses rule replay for a log that cannot support it, at the header of `file`
  /// (`FILE:1:COLUMN: message`, exit 65): a version-1 log lacks the column `action`
  /// (named at the column after the header's last); a version-2 log lacks its sidecar.
  static func refuseRuleReplay(_ file: String, log: ExposureLog, sidecar: String?) throws -> Never {
    if log.version != 2 {
      let header = (try? FileIO.readBytes(file))?.prefix { $0 != 10 && $0 != 13 } ?? []
      StandardError.write(
        "\(file):1:\(header.count + 2): rr and rr-dr need the version-2 column 'action' (and swiped_to, want_app, "
          + "rule), which this version-1 exposure log lacks; estimate it with --estimator dm,ips,snips,dr")
    } else {
      StandardError.write(
        "\(file): rr and rr-dr need the log's sidecar: \(sidecar ?? ExposureSidecar.path(besideLog: file)) "
          + "does not exist (simulate --emit-exposures writes it; give another with --sidecar)")
    }
    throw Exit.dataError
  }
}
