import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// `summary.csv` and `paired.csv`: statistics over units (docs/batch.md, "Statistics").
public enum StatisticsTables {
  public static let summaryHeader = [
    "source", "strategy", "parameters", "label", "metric", "mean", "ci_low", "ci_high", "n",
  ]
  public static let pairedHeader = [
    "source", "strategy", "parameters", "label", "baseline", "metric", "mean_difference",
    "ci_low", "ci_high", "p_value", "n",
  ]

  /// One `summary.csv` row.
  public struct SummaryRow: Sendable, Hashable {
    public var metric: String
    public var mean: Double
    public var low: Double
    public var high: Double
    public var n: Int
  }

  /// One `paired.csv` row.
  public struct PairedRow: Sendable, Hashable {
    public var metric: String
    public var meanDifference: Double
    public var low: Double
    public var high: Double
    public var pValue: Double
    public var n: Int
  }

  /// The summary of one metric's unit values: mean, 95% percentile bootstrap CI and n
  /// over the defined values; the bootstrap generator comes from `rowKey`.
  public static func summarize(_ values: [Double], metric: String, seed: UInt64, rowKey: String)
    -> SummaryRow
  {
    let defined = values.filter { !$0.isNaN }
    var generator = Bootstrap.generator(masterSeed: seed, rowKey: rowKey)
    let interval = Bootstrap.meanInterval(defined, using: &generator)
    return SummaryRow(
      metric: metric, mean: Bootstrap.mean(defined), low: interval?.low ?? .nan,
      high: interval?.high ?? .nan, n: defined.count)
  }

  /// The paired comparison of unit values `values` against `baseline` (same units, same
  /// order): over the units where both are defined, the mean of the differences
  /// (value - baseline), its 95% percentile bootstrap CI (resampling units) and the
  /// two-sided Wilcoxon signed-rank p-value (empty when every difference is 0).
  public static func compare(
    _ values: [Double], baseline: [Double], metric: String, seed: UInt64, rowKey: String
  ) -> PairedRow {
    var differences: [Double] = []
    for i in 0..<min(values.count, baseline.count) where !values[i].isNaN && !baseline[i].isNaN {
      differences.append(values[i] - baseline[i])
    }
    var generator = Bootstrap.generator(masterSeed: seed, rowKey: rowKey)
    let interval = Bootstrap.meanInterval(differences, using: &generator)
    let test = WilcoxonSignedRank.test(differences)
    return PairedRow(
      metric: metric, meanDifference: Bootstrap.mean(differences), low: interval?.low ?? .nan,
      high: interval?.high ?? .nan, pValue: test?.pValue ?? .nan, n: differences.count)
  }

  /// The mean over a rolling back-test's folds of their per-fold means `values` (NaN:
  /// undefined in that fold, left out), with a 95% Student t interval over the n defined
  /// fold means: mean ± t(0.975, n − 1) · s / √n, s their sample standard deviation.
  /// The unit is the fold; the interval is empty when n < 2. Folds share people and
  /// training data, so they are not independent: the interval describes the spread of
  /// the folds, not a sample of people (docs/batch.md, "Time splits").
  public static func foldMean(_ values: [Double]) -> (mean: Double, low: Double, high: Double, n: Int) {
    let defined = values.filter { !$0.isNaN }
    let n = defined.count
    guard n > 0 else { return (.nan, .nan, .nan, 0) }
    let mean = defined.reduce(0, +) / Double(n)
    guard n >= 2 else { return (mean, .nan, .nan, n) }
    let variance = defined.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
    let half = StudentT.quantile(0.975, degreesOfFreedom: Double(n - 1)) * (variance / Double(n)).squareRoot()
    return (mean, mean - half, mean + half, n)
  }

  /// The rows of one source and strategy point (summary, and paired unless it is the
  /// baseline).
  static func rows(_ grid: ResultGrid, source: Int, strategy: Int, metrics: [UnitMetric] = UnitMetric.standard)
    -> ([SummaryRow], [PairedRow])
  {
    let outline = grid.outline
    let sourceName = outline.sources[source].name
    let point = outline.strategies[strategy]
    let baseline = outline.strategies[outline.baseline]
    var summary: [SummaryRow] = []
    var paired: [PairedRow] = []
    for metric in metrics {
      let values = grid.unitValues(source: source, strategy: strategy, metric: metric)
      summary.append(
        summarize(
          values, metric: metric.name, seed: outline.seed,
          rowKey: "summary|\(sourceName)|\(point.descriptor)|\(metric.name)"))
      if strategy != outline.baseline {
        let base = grid.unitValues(source: source, strategy: outline.baseline, metric: metric)
        paired.append(
          compare(
            values, baseline: base, metric: metric.name, seed: outline.seed,
            rowKey: "paired|\(sourceName)|\(point.descriptor)|\(baseline.descriptor)|\(metric.name)"
          ))
      }
    }
    if let oracle = grid.oracle,
      let hitRate = metrics.first(where: { $0.name == "hit_rate" })
    {
      let mine = grid.unitValues(source: source, strategy: strategy, metric: hitRate)
      let best = grid.unitValues(source: source, strategy: oracle, metric: hitRate)
      var regret: [Double] = []
      for i in 0..<min(mine.count, best.count) {
        regret.append(mine[i].isNaN || best[i].isNaN ? .nan : best[i] - mine[i])
      }
      summary.append(
        summarize(
          regret, metric: UnitMetric.regretName, seed: outline.seed,
          rowKey: "summary|\(sourceName)|\(point.descriptor)|\(UnitMetric.regretName)"))
    }
    return (summary, paired)
  }

  /// `summary.csv` and `paired.csv` of a complete experiment: a row per metric of
  /// `catalog` present in the experiment (`MetricCatalog.present(in:)`, `statistics`);
  /// (source, strategy) groups are computed in parallel, at most `jobs` at a time, and
  /// written in key order.
  public static func tables(_ grid: ResultGrid, jobs: Int, catalog: MetricCatalog = .standard) async -> (
    summary: [UInt8], paired: [UInt8]
  ) {
    let outline = grid.outline
    let metrics = catalog.present(in: grid.metrics.flatMap { $0.flatMap { $0 } }).statistics
    let groups = outline.sources.count * outline.strategies.count
    // Optional for the fold means' look-ups below; every group has its rows.
    let results: [([SummaryRow], [PairedRow])?] = await WorkerPool(jobs: jobs).map(groups) { g in
      rows(grid, source: g / outline.strategies.count, strategy: g % outline.strategies.count, metrics: metrics)
    }
    let split = outline.hasSplits
    var summary = CSVWriter(header: ExperimentTables.withSplit(summaryHeader, outline))
    var paired = CSVWriter(header: ExperimentTables.withSplit(pairedHeader, outline))
    let baseline = outline.strategies[outline.baseline].descriptor
    let strategies = outline.strategies.count
    let foldGroups = outline.foldGroups
    func splitCells(_ text: String?) -> [String] { split ? [text ?? ""] : [] }
    for g in 0..<groups {
      guard let (summaryRows, pairedRows) = results[g] else { continue }
      let sourcePoint = outline.sources[g / strategies]
      let source = sourcePoint.name
      let strategy = outline.strategies[g % strategies]
      for row in summaryRows {
        summary.appendRow(
          [source] + splitCells(sourcePoint.split) + [
            strategy.name, strategy.parameters, strategy.label, row.metric, RunTables.cell(row.mean),
            RunTables.cell(row.low), RunTables.cell(row.high), String(row.n),
          ])
      }
      for row in pairedRows {
        paired.appendRow(
          [source] + splitCells(sourcePoint.split) + [
            strategy.name, strategy.parameters, strategy.label, baseline, row.metric,
            RunTables.cell(row.meanDifference), RunTables.cell(row.low), RunTables.cell(row.high),
            RunTables.cell(row.pValue), String(row.n),
          ])
      }
      // After a rolling back-test's last fold: per strategy and metric, the mean over folds.
      guard g % strategies == strategies - 1,
        let group = foldGroups.first(where: { $0.sources.upperBound - 1 == g / strategies })
      else { continue }
      for j in 0..<strategies {
        let point = outline.strategies[j]
        let folds = group.sources.map { results[$0 * strategies + j] }
        guard let first = folds.first ?? nil else { continue }
        for row in first.0 {
          let m = foldMean(folds.map { $0?.0.first { $0.metric == row.metric }?.mean ?? .nan })
          summary.appendRow(
            [group.label] + splitCells("mean") + [
              point.name, point.parameters, point.label, row.metric, RunTables.cell(m.mean),
              RunTables.cell(m.low), RunTables.cell(m.high), String(m.n),
            ])
        }
        for row in first.1 {
          let m = foldMean(folds.map { $0?.1.first { $0.metric == row.metric }?.meanDifference ?? .nan })
          paired.appendRow(
            [group.label] + splitCells("mean") + [
              point.name, point.parameters, point.label, baseline, row.metric, RunTables.cell(m.mean),
              RunTables.cell(m.low), RunTables.cell(m.high), "", String(m.n),
            ])
        }
      }
    }
    return (summary.bytes, paired.bytes)
  }
}
