import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A metric of one statistical unit (a person), as `summary.csv` and `paired.csv` use it.
///
/// Each is a function of the unit's `MetricCounts` (and its exposure Gini), NaN where it
/// is undefined (a ratio over zero). Units where a metric is undefined are left out of
/// that metric's statistics.
public struct UnitMetric: Sendable {
  public var name: String
  public var value: @Sendable (MetricCounts, Double) -> Double

  public init(_ name: String, _ value: @escaping @Sendable (MetricCounts, Double) -> Double) {
    self.name = name
    self.value = value
  }

  /// The metrics of `summary.csv` and `paired.csv`, in row order: the declarations of
  /// `MetricCatalog.standard` with a `statisticsRank` (definitions there).
  public static let standard: [UnitMetric] = MetricCatalog.standard.statistics

  /// The name of the extra `summary.csv` metric written when the experiment has an
  /// oracle (a target-aware strategy): per unit, the oracle's hit rate minus the
  /// strategy's.
  public static let regretName = "regret"
}

/// The finished cells of a complete experiment, by source, strategy and replicate.
public struct ResultGrid: Sendable {
  public let outline: ExperimentOutline
  /// `metrics[source][strategy][replicate]`.
  public let metrics: [[[RunMetrics]]]

  /// Arranges `results`, which must hold every cell of `outline` exactly once.
  ///
  /// - Precondition: complete and without duplicates (checked by the callers).
  public init(outline: ExperimentOutline, results: [CellResult]) {
    self.outline = outline
    let empty = RunMetrics(perPerson: [], perPersonGini: [], timesToSurface: [], daily: [])
    var grid = Array(
      repeating: Array(
        repeating: Array(repeating: empty, count: outline.replicates),
        count: outline.strategies.count),
      count: outline.sources.count)
    for r in results {
      grid[r.cell.source][r.cell.strategy][r.cell.replicate] = r.metrics
    }
    metrics = grid
  }

  /// The unit values of `metric` for a source and strategy, in unit order (NaN where
  /// undefined):
  /// - units are (replicate, person) pairs, replicate-major, when the source draws new
  ///   people per replicate (scenarios);
  /// - otherwise units are people, each valued at the mean of its defined values over
  ///   the replicates (NaN when none is defined).
  public func unitValues(source: Int, strategy: Int, metric: UnitMetric) -> [Double] {
    let runs = metrics[source][strategy]
    if outline.sources[source].unitsArePeoplePerReplicate {
      var values: [Double] = []
      for run in runs {
        for (p, counts) in run.perPerson.enumerated() {
          values.append(
            metric.value(counts, p < run.perPersonGini.count ? run.perPersonGini[p] : .nan))
        }
      }
      return values
    }
    let people = runs.map(\.perPerson.count).max() ?? 0
    var values: [Double] = []
    values.reserveCapacity(people)
    for p in 0..<people {
      var sum = 0.0
      var n = 0
      for run in runs where p < run.perPerson.count {
        let x = metric.value(
          run.perPerson[p], p < run.perPersonGini.count ? run.perPersonGini[p] : .nan)
        if !x.isNaN {
          sum += x
          n += 1
        }
      }
      values.append(n == 0 ? .nan : sum / Double(n))
    }
    return values
  }

  /// Index of the first target-aware strategy (`ExperimentOutline.oracle`), if any.
  public var oracle: Int? { outline.oracle }
}
