import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Tunes the design's `tune` strategy points on the validation window (docs/batch.md,
/// "Tuning").
///
/// A *trial* is one configuration of a tuned point: its base parameters with the tuned
/// ones replaced. A trial's score on a rung is the mean, over its runs on the
/// validation source points (those whose split point is `validation`) and replicates,
/// of each run's `metric` (runs where the metric is undefined are left out; `n` counts
/// the others). Only validation points are run, and their metrics depend on nothing at
/// or after the validation window's end (docs/batch.md, "Time splits"), so nothing in the
/// test window can change the choice.
///
/// Rungs (`TuneSpec.rungSizes`): grid and random searches have one, on every person. A
/// successive halving scores rung r on the first ⌈P / eta^(R−1−r)⌉ people of each
/// validation point (P its people, in the log's person order) and keeps the best
/// ⌈count/eta^(r+1)⌉ for the next rung. Ranking: higher mean first, an undefined mean
/// last, ties by trial number (generation order). The chosen trial is the best of the
/// last rung.
public enum Tuner {
  /// One row of `tuning.csv`.
  public struct Trial: Sendable, Hashable {
    /// The tuned point's label before tuning (`StrategyDescriptor.label`).
    public var strategy: String
    /// The tuned point's position in the experiment's strategies, 1-based (tells apart
    /// two tuned points of one strategy).
    public var point: Int
    /// The search (`TuneSpec.Search`).
    public var search: String
    /// 1-based, in generation order.
    public var trial: Int
    /// 0-based rung (always 0 but for halving).
    public var rung: Int
    /// People scored, summed over the validation points.
    public var people: Int
    /// `k=v;k=v`, every parameter of the trial (the `parameters` column of `runs.csv`).
    public var parameters: String
    public var metric: String
    public var mean: Double
    public var n: Int
    public var chosen: Bool
  }

  /// The header of `tuning.csv`.
  public static let header = ["strategy", "point", "search", "trial", "rung", "people", "parameters", "metric", "mean", "n", "chosen"]

  /// `design` with each tuned point replaced by its chosen configuration, and every
  /// trial (tuned points in strategy order; within one, rung by rung, trials in
  /// generation order). The same for any `jobs`.
  ///
  /// - Throws: `BatchError` when a trial's parameters are refused by the strategy, when
  ///   its runs fail, or when the chosen configuration equals another strategy point.
  public static func tune(
    _ design: ExperimentDesign, sources: [any ExperimentSource], jobs: Int
  ) async throws -> (design: ExperimentDesign, trials: [Trial]) {
    var design = design
    var rows: [Trial] = []
    let validation = design.sources.indices.filter { i in
      if case .log(let log) = design.sources[i].input { return log.split?.name == "validation" }
      return false
    }
    guard !validation.isEmpty else { return (design, []) }
    for tuning in design.tuning {
      let base = design.strategies[tuning.strategy]
      let spec = tuning.spec
      let configurations = spec.configurations(seed: design.seed, strategy: base.descriptor.description)
      let choices = try configurations.map { try choice(base, spec: spec, values: $0) }
      let rungs = spec.rungSizes(configurations: choices.count)
      var alive = Array(choices.indices)
      for (r, keep) in rungs.enumerated() {
        alive = Array(alive.prefix(keep)).sorted()
        let divisor = rungDivisor(spec, rung: r, rungs: rungs.count)
        let points = validation.map { subset(sources[$0], divisor: divisor) }
        let scores = try await score(
          alive.map { choices[$0] }, sources: points, replicates: design.replicates, seed: design.seed,
          metric: spec.metric, jobs: jobs)
        let people = points.reduce(0) { $0 + $1.statistics.people }
        let last = r == rungs.count - 1
        let order = alive.indices.sorted { a, b in
          better(scores[a].mean, scores[b].mean) || (!better(scores[b].mean, scores[a].mean) && alive[a] < alive[b])
        }
        for (k, t) in alive.enumerated() {
          rows.append(
            Trial(
              strategy: base.descriptor.label, point: tuning.strategy + 1, search: spec.search.rawValue, trial: t + 1, rung: r, people: people,
              parameters: choices[t].descriptor.parameters.canonical, metric: spec.metric, mean: scores[k].mean,
              n: scores[k].n, chosen: last && k == order[0]))
        }
        alive = order.map { alive[$0] }
      }
      design.strategies[tuning.strategy] = choices[alive[0]]
    }
    // Two points with one descriptor would share run ids and rows.
    for tuning in design.tuning {
      let chosen = design.strategies[tuning.strategy].descriptor
      if let other = design.strategies.indices.first(where: { $0 != tuning.strategy && design.strategies[$0].descriptor == chosen }) {
        throw BatchError(
          "\(tuning.location.diagnostic("tuning chose \(chosen), which is also strategy point \(other + 1) of the experiment (after tuning): two points would have the same rows. Remove that point, or change the search"))"
        )
      }
    }
    return (design, rows)
  }

  /// `a` ranks before `b`: higher, a defined value before NaN.
  static func better(_ a: Double, _ b: Double) -> Bool {
    if a.isNaN { return false }
    return b.isNaN || a > b
  }

  /// eta^(rungs − 1 − rung) for halving, else 1: the share of people rung `rung` uses.
  static func rungDivisor(_ spec: TuneSpec, rung: Int, rungs: Int) -> Int {
    guard spec.search == .halving else { return 1 }
    var d = 1
    for _ in 0..<(rungs - 1 - rung) { d = d.multipliedReportingOverflow(by: spec.eta).overflow ? Int.max : d * spec.eta }
    return d
  }

  /// The first ⌈P/divisor⌉ people (at least one) of a log source (P its people), in
  /// memory or in blocks; other sources whole.
  static func subset(_ source: any ExperimentSource, divisor: Int) -> any ExperimentSource {
    guard divisor > 1 else { return source }
    func share(_ count: Int) -> Int { max(1, count / divisor + (count % divisor == 0 ? 0 : 1)) }
    if let spilled = source as? SpilledLogSource { return spilled.prefix(people: share(spilled.statistics.people)) }
    guard let log = source as? LogSource else { return source }
    var plan = log.plan
    plan.people = Array(plan.people.prefix(share(plan.people.count)))
    var statistics = log.statistics
    statistics.people = plan.people.count
    return LogSource(name: log.name, plan: plan, statistics: statistics)
  }

  /// `base` with the tuned parameters set to `values` (in `spec.parameters` order).
  static func choice(_ base: StrategyChoice, spec: TuneSpec, values: [Double]) throws -> StrategyChoice {
    var given = base.descriptor.parameters.values.map { ($0.name, $0.value) }
    for (p, value) in zip(spec.parameters, values) {
      given.removeAll { $0.0 == p.name }
      given.append((p.name, value))
    }
    do {
      let parameters = try StrategyParameters(specs: base.type.parameterSpecs, given: given, strategy: base.type.name)
      return try StrategyChoice(StrategyRegistry.Entry(type: base.type, runner: base.runner), parameters: parameters)
    } catch {
      throw BatchError("tuning \(base.descriptor.label): \(error)")
    }
  }

  /// The mean of `metric` over every (source, replicate) run of each of `choices`.
  static func score(
    _ choices: [StrategyChoice], sources: [any ExperimentSource], replicates: Int, seed: UInt64,
    metric: String, jobs: Int
  ) async throws -> [(mean: Double, n: Int)] {
    let perChoice = sources.count * replicates
    let cells = (0..<(choices.count * perChoice)).map { i in
      Cell(index: i, source: (i % perChoice) / replicates, strategy: i / perChoice, replicate: i % replicates)
    }
    var values = [Double](repeating: .nan, count: cells.count)
    try await ExperimentRunner.run(
      cells, sources: sources, strategies: choices, seed: seed, jobs: jobs, trace: false,
      runID: { cell in Cell.runID(source: sources[cell.source].name, strategy: choices[cell.strategy].descriptor.description, replicate: cell.replicate) }
    ) { result, _ in
      values[result.cell.index] = result.metrics.value(metric) ?? .nan
    }
    return choices.indices.map { c in
      let defined = values[(c * perChoice)..<((c + 1) * perChoice)].filter { !$0.isNaN }
      return (defined.isEmpty ? .nan : defined.reduce(0, +) / Double(defined.count), defined.count)
    }
  }

  /// `tuning.csv`: one row per trial and rung (`Trial`), numbers by `NumberFormat.format`.
  public static func csv(_ trials: [Trial]) -> [UInt8] {
    var csv = CSVWriter(header: header)
    for t in trials {
      csv.appendRow([
        t.strategy, String(t.point), t.search, String(t.trial), String(t.rung), String(t.people), t.parameters, t.metric,
        RunTables.cell(t.mean), String(t.n), t.chosen ? "1" : "0",
      ])
    }
    return csv.bytes
  }
}
