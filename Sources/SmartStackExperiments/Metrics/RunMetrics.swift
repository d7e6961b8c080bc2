import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The metrics of one run (one strategy over one source): the counts and samples every
/// metric of `MetricCatalog.standard` is computed from. The metrics' names, definitions
/// and units are declared there (`MetricDeclaration`), in `runs.csv` column order.
public struct RunMetrics: Sendable {
  /// Pooled counts.
  public var total: MetricCounts
  /// Per-person counts, in person order.
  public var perPerson: [MetricCounts]
  public var people: Int { perPerson.count }
  public var medianTimeToSurfaceSeconds: Double
  public var exposureGini: Double
  /// Per-person Gini coefficient of exposure (see `StandardMetrics.exposureGini`), in
  /// person order; NaN for a person without visits.
  public var perPersonGini: [Double]
  /// Time from each surfaced window's start to its first surfacing visit, milliseconds,
  /// ascending.
  public var timesToSurface: [Int64]
  /// Pooled counts per local day index, ascending by day, with the UTC offsets at the
  /// day's start and end (`LocalDays`).
  public var daily: [(day: Int64, counts: MetricCounts, offsets: DayOffsets)]
  /// What a simulation adds (reactions, reloads, suggestions); nil for replays.
  public var simulation: SimulationCounts? = nil

  /// The metrics of a finished run whose local days lie in UTC as `days` says (the
  /// run's source: `LocalDays(plan:)` for a replay, `LocalDays(zone:)` for a simulation).
  public init(_ m: StandardMetrics, days: LocalDays) {
    self.init(
      perPerson: m.perPerson, perPersonGini: m.exposureGini,
      timesToSurface: m.timesToSurface,
      daily: m.days.keys.sorted().map { ($0, m.days[$0]!, days.offsets(of: $0)) })
  }

  /// Rebuilds the metrics from their parts (e.g. read back from a batch journal):
  /// the totals, the median time to surface and the mean Gini are derived exactly as
  /// `init(_:)` derives them, so the values are bit-identical.
  ///
  /// - Parameters:
  ///   - perPerson: counts in person order.
  ///   - perPersonGini: one value per person (NaN for none).
  ///   - timesToSurface: milliseconds, in any order (sorted here).
  ///   - daily: counts per local day index, ascending by day, with the day's offsets.
  public init(
    perPerson: [MetricCounts], perPersonGini: [Double], timesToSurface: [Int64],
    daily: [(day: Int64, counts: MetricCounts, offsets: DayOffsets)]
  ) {
    self.perPerson = perPerson
    self.perPersonGini = perPersonGini
    var total = MetricCounts()
    for p in perPerson { total += p }
    self.total = total
    let sorted = timesToSurface.sorted()
    self.timesToSurface = sorted
    if sorted.isEmpty {
      medianTimeToSurfaceSeconds = .nan
    } else if sorted.count % 2 == 1 {
      medianTimeToSurfaceSeconds = Double(sorted[sorted.count / 2]) / 1000
    } else {
      let a = sorted[sorted.count / 2 - 1]
      let b = sorted[sorted.count / 2]
      medianTimeToSurfaceSeconds = (Double(a) + Double(b)) / 2000
    }
    let ginis = perPersonGini.filter { !$0.isNaN }
    exposureGini = ginis.isEmpty ? .nan : ginis.reduce(0, +) / Double(ginis.count)
    self.daily = daily
  }

  /// Mean over people with target visits of a per-person rate.
  package func macro(_ rate: (MetricCounts) -> Double) -> Double {
    var sum = 0.0
    var n = 0
    for p in perPerson where p.targetVisits > 0 {
      sum += rate(p)
      n += 1
    }
    return n == 0 ? .nan : sum / Double(n)
  }

  /// The standard metric names, in `runs.csv` column order (`MetricCatalog.standard`).
  public static let names: [String] = MetricCatalog.standard.names

  /// The standard metrics' values in `names` order.
  public var values: [Double] { MetricCatalog.standard.declarations.map { $0.run(self) } }

  /// The value of one metric by name (any group of `MetricCatalog.standard`), or nil for
  /// an unknown name.
  public func value(_ name: String) -> Double? {
    MetricCatalog.standard.declarations.first { $0.name == name }?.run(self)
  }
}
