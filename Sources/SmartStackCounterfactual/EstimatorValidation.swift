import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// One row of `validation.csv`: how one estimator did against the truth over replicates.
public struct ValidationRow: Sendable {
  public var logging: String
  public var strategy: String
  public var estimator: OffPolicyEstimator
  public var metric: String
  /// Replicates with a defined estimate.
  public var replicates: Int
  /// Mean over replicates of the on-policy value (the truth) and of the estimate.
  public var truth: Double
  public var estimate: Double
  /// Mean of (estimate − truth), and its 95 % Student-t interval
  /// `bias ± t₀.₉₇₅(replicates − 1) · se`; NaN ends with fewer than 2 replicates.
  public var bias: Double
  public var biasLow: Double
  public var biasHigh: Double
  /// The bias's standard error `sd / √replicates` (sd of the differences, n − 1
  /// denominator); NaN with fewer than 2 replicates.
  public var biasStandardError: Double
  /// The number of rows tested together with this one: the rows of the same logging
  /// strategy and estimator (targets × metrics). Sets the family-wise interval.
  public var familySize: Int
  /// √ mean((estimate − truth)²).
  public var rmse: Double
  /// Share of replicates whose 95 % bootstrap interval contains that replicate's truth.
  public var coverage: Double
  /// Mean share of visits where the target's choice had logging probability 0.
  public var zeroProbabilityShare: Double

  /// True when the bias interval contains 0.
  public var unbiasedWithinInterval: Bool { biasLow <= 0 && 0 <= biasHigh }

  /// True when the family-wise interval `bias ± t_{1 − 0.025/m}(replicates − 1) · se`,
  /// m = `familySize` (Bonferroni), contains 0. If every row of a family is exactly
  /// unbiased, all of them pass together with probability at least 0.95 (given normal
  /// replicate differences), whereas each row's 95 % interval alone misses 0 in 5 % of
  /// rows: 20 independent unbiased rows show at least one "biased" in 64 % of tables.
  public var unbiasedFamilyWise: Bool {
    guard replicates >= 2, biasStandardError.isFinite, familySize >= 1 else { return false }
    let level = 1 - 0.025 / Double(familySize)
    let half = StudentT.quantile(level, degreesOfFreedom: Double(replicates - 1)) * biasStandardError
    return abs(bias) <= half
  }
}

/// `evaluate --validate`: each estimator's bias, RMSE and coverage against the on-policy
/// truth on simulated people (docs/counterfactual.md, "Validation").
///
/// For each replicate r (people drawn from `(seed, r)`, the same for every strategy:
/// common random numbers): every target runs on-policy and its truth is its mean tap and
/// hit per visit (`ExposureRun`); every logging strategy runs and writes an exposure log,
/// from which each target is estimated (`TargetChoices`, `OffPolicyEvaluation`, with the
/// scenario's zone and kinds and the relevance timelines the logging run delivered,
/// bootstrap seed `StreamSeed.derive(seed, r)`).
public enum EstimatorValidation {
  /// The rows, in order of logging strategy, target, estimator, metric.
  ///
  /// `onReplicateDone` is called (from any thread) as each replicate finishes. At most
  /// `jobs` replicates run at a time (default: one per core).
  ///
  /// - Throws: `ReplayError` from the targets' runs over a log.
  public static func run(
    _ scenario: Scenario, logging: [StrategyChoice], targets: [StrategyChoice], replicates: Int, seed: UInt64,
    options: SimulationOptions, estimators: [OffPolicyEstimator] = OffPolicyEstimator.standard,
    resamples: Int = Bootstrap.resamples, onLog: ((_ logger: Int, _ log: ExposureLog) -> Void)? = nil,
    onReplicateDone: @Sendable @escaping () -> Void = {},
    jobs: Int = AvailableCores.count
  ) async throws -> [ValidationRow] {
    var kindsOf: [String: String] = [:]
    for instance in scenario.stackInstances { kindsOf[instance.id] = instance.kind }
    let kinds = kindsOf
    let keepsLogs = onLog != nil
    // samples[logging][target][estimator·metric]: (estimate, interval, truth, zero share)
    typealias Sample = (estimate: Double, low: Double?, high: Double?, truth: Double, zero: Double)
    let cellsPerTarget = estimators.count * OffPolicyEvaluation.metrics.count
    let ruleReplay = estimators.contains(where: \.isRuleReplay)
    var samples = [[[[Sample]]]](
      repeating: [[[Sample]]](repeating: [[Sample]](repeating: [], count: cellsPerTarget), count: targets.count),
      count: logging.count)
    // One replicate's samples (logger, target, cell, sample) and logs; replicates run
    // at most `jobs` at a time (`WorkerPool`) and are merged in replicate order, so the
    // rows do not depend on the number of jobs.
    typealias Replicate = (samples: [(Int, Int, Int, Sample)], logs: [(Int, ExposureLog)])
    @Sendable func replicate(_ r: Int) throws -> Replicate {
      var out: Replicate = ([], [])
      let cell = SimulationCell(replicate: r, seed: seed, options: options)
      let truths = targets.map { TruthObserver.rates(scenario, choice: $0, cell: cell) }
      for (l, logger) in logging.enumerated() {
        // One logging run: its sidecar's timelines of the stack's instances are the ones
        // `runWithTimelines` gives (the suggested instances' are left out for the targets'
        // replay, as before rule replay).
        let log: ExposureLog
        let timelines: TimelineFile
        var world: RuleReplay.World? = nil
        if ruleReplay {
          let sidecar: ExposureSidecar
          (log, sidecar) = ExposureRun.runWithSidecar(scenario, choice: logger, cell: cell)
          let stack = Set(scenario.stackInstances.map(\.id))
          timelines = TimelineFile(instances: (sidecar.timelines?.instances ?? []).filter { stack.contains($0.id) })
          world = try RuleReplay.World(log: log, sidecar: sidecar, model: ResponseModel(log))
        } else {
          (log, timelines) = ExposureRun.runWithTimelines(scenario, choice: logger, cell: cell)
        }
        if keepsLogs { out.logs.append((l, log)) }
        let plan = try TargetChoices.plan(log, zone: scenario.zone, kinds: kinds, timelines: timelines)
        let rrSeed = StreamSeed.derive(seed, UInt64(r))
        let choices = try targets.map { target in
          OffPolicyEvaluation.Target(
            label: target.descriptor.label, choices: try TargetChoices.choices(target, plan: plan, log: log),
            ruleReplay: try world.map {
              try RuleReplay.sums(target, world: $0, seed: rrSeed, replicate: r, engine: options.engine)
            },
            ruleReplayNoRules: estimators.contains(.rrNoRules)
              ? try world.map {
                try RuleReplay.sums(target, world: $0, seed: rrSeed, replicate: r, engine: options.engine, rulesOff: true)
              } : nil)
        }
        let rows = OffPolicyEvaluation.estimates(
          log, targets: choices, estimators: estimators, zone: scenario.zone, seed: rrSeed, resamples: resamples)
        for row in rows {
          let t = targets.firstIndex { $0.descriptor.label == row.strategy }!
          let m = OffPolicyEvaluation.metrics.firstIndex { $0.name == row.metric }!
          let e = estimators.firstIndex(of: row.estimator)!
          guard let estimate = row.estimate else { continue }
          out.samples.append(
            (l, t, e * OffPolicyEvaluation.metrics.count + m,
             (estimate, row.interval?.low, row.interval?.high, truths[t][m], row.zeroProbabilityShare ?? .nan)))
        }
      }
      return out
    }
    let results = await WorkerPool(jobs: jobs).map(replicates) { r in
      let result = Result { try replicate(r) }
      onReplicateDone()
      return result
    }
    for r in 0..<replicates {
      let done = try results[r].get()
      for (l, t, k, sample) in done.samples { samples[l][t][k].append(sample) }
      for (l, log) in done.logs { onLog?(l, log) }
    }
    var result: [ValidationRow] = []
    for (l, logger) in logging.enumerated() {
      for (t, target) in targets.enumerated() {
        var k = 0
        for estimator in estimators {
          for metric in OffPolicyEvaluation.metrics {
            let s = samples[l][t][k]
            k += 1
            guard !s.isEmpty else { continue }
            let n = Double(s.count)
            let differences = s.map { $0.estimate - $0.truth }
            let bias = differences.reduce(0, +) / n
            let variance = s.count > 1 ? differences.map { ($0 - bias) * ($0 - bias) }.reduce(0, +) / (n - 1) : .nan
            let standardError = (variance / n).squareRoot()
            let half = s.count > 1 ? StudentT.quantile(0.975, degreesOfFreedom: n - 1) * standardError : .nan
            let covered = s.filter { x in x.low.map { $0 <= x.truth } == true && x.high.map { x.truth <= $0 } == true }
            result.append(
              ValidationRow(
                logging: logger.descriptor.label, strategy: target.descriptor.label, estimator: estimator,
                metric: metric.name, replicates: s.count, truth: s.map(\.truth).reduce(0, +) / n,
                estimate: s.map(\.estimate).reduce(0, +) / n, bias: bias, biasLow: bias - half, biasHigh: bias + half, biasStandardError: standardError, familySize: 0,
                rmse: (differences.map { $0 * $0 }.reduce(0, +) / n).squareRoot(),
                coverage: Double(covered.count) / n, zeroProbabilityShare: s.map(\.zero).reduce(0, +) / n))
          }
        }
      }
    }
    // Families: the rows of one logging strategy and estimator.
    for i in result.indices {
      result[i].familySize = result.filter { $0.logging == result[i].logging && $0.estimator == result[i].estimator }.count
    }
    return result
  }

  /// `checks.csv` of a validation: per logging strategy and model-free check
  /// (`ExposureCheck`), over the replicates' logs, how often it rejected at the 5 % level.
  /// The simulated people's visits and wants never depend on what is shown, so every
  /// rejection is a false positive: the rate should be near 0.05.
  public static func checksCSV(_ checks: [[ExposureCheck]], logging: [String], scenario: String) -> String {
    var csv = CSVWriter(header: [
      "scenario", "logging_strategy", "check", "replicates", "rejections", "false_positive_rate", "mean_z",
    ])
    for (l, list) in checks.enumerated() {
      var names: [String] = []
      for c in list where !names.contains(c.name) { names.append(c.name) }
      for name in names {
        let these = list.filter { $0.name == name }
        let rejections = these.filter { $0.pValue < 0.05 }.count
        csv.append(scenario)
        csv.append(logging[l])
        csv.append(name)
        csv.append(these.count)
        csv.append(rejections)
        csv.append(Double(rejections) / Double(these.count), decimals: 6)
        csv.append(these.map(\.z).reduce(0, +) / Double(these.count), decimals: 6)
        csv.endRow()
      }
    }
    return csv.text
  }

  /// `validation.csv`: header `scenario,logging_strategy,strategy,estimator,metric,
  /// replicates,truth,estimate,bias,bias_ci_low,bias_ci_high,rmse,coverage,
  /// zero_probability_share,unbiased,unbiased_familywise,bias_se`; numbers rounded to 6
  /// decimals (`bias_se`, the bias's standard error, to 8, for judging rows across files);
  /// `unbiased` 1 when the row's 95 % bias interval contains 0, `unbiased_familywise` 1
  /// when its Bonferroni-widened interval does (`ValidationRow.unbiasedFamilyWise`).
  public static func csv(_ rows: [ValidationRow], scenario: String) -> String {
    var csv = CSVWriter(header: [
      "scenario", "logging_strategy", "strategy", "estimator", "metric", "replicates", "truth", "estimate", "bias",
      "bias_ci_low", "bias_ci_high", "rmse", "coverage", "zero_probability_share", "unbiased",
      "unbiased_familywise", "bias_se",
    ])
    for r in rows {
      csv.append(scenario)
      csv.append(r.logging)
      csv.append(r.strategy)
      csv.append(r.estimator.rawValue)
      csv.append(r.metric)
      csv.append(r.replicates)
      for x in [r.truth, r.estimate, r.bias, r.biasLow, r.biasHigh, r.rmse, r.coverage, r.zeroProbabilityShare] {
        csv.append(x, decimals: 6)
      }
      csv.append(r.unbiasedWithinInterval ? 1 : 0)
      csv.append(r.unbiasedFamilyWise ? 1 : 0)
      csv.append(r.biasStandardError, decimals: 8)
      csv.endRow()
    }
    return csv.text
  }
}

/// A target's on-policy truth in one replicate: its tap and hit rates per visit with
/// something shown (`OffPolicyEvaluation.metrics`' order), counted from the simulation
/// without building an exposure log. The same numbers as the target's own exposure log
/// (`RuleReplayTests`).
struct TruthObserver: OutcomeObserver {
  var visits = 0
  var hits = 0
  var taps = 0
  var counted = false

  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    counted = o.shown >= 0
    guard counted else { return }
    visits += 1
    hits += o.isHit ? 1 : 0
  }

  mutating func responded(_ response: VisitResponse) {
    if counted && response.action == .tap { taps += 1 }
  }

  /// `[tap rate, hit rate]` of `choice` on `scenario`'s replicate `cell`.
  static func rates(_ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell) -> [Double] {
    struct Visit: StrategyTypeVisitor {
      var scenario: Scenario
      var descriptor: StrategyDescriptor
      var cell: SimulationCell
      func visit<S: RankingStrategy>(_ prototype: S) -> TruthObserver {
        var emitter: LogEmitter? = nil
        return Simulation.run(
          scenario, strategy: prototype, descriptor: descriptor, replicate: cell.replicate, seed: cell.seed,
          options: cell.options, observer: TruthObserver(), emitter: &emitter
        ).observer
      }
    }
    let t = choice.open(Visit(scenario: scenario, descriptor: choice.descriptor, cell: cell))
    let n = Double(max(t.visits, 1))
    return [Double(t.taps) / n, Double(t.hits) / n]
  }
}
