import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The metrics of one run (one strategy over one source), in the fixed column order of
/// `runs.csv`.
///
/// Definitions (micro = pooled over all scored visits; macro = the unweighted mean over
/// people who have at least one target visit of each person's own value):
/// - `people`: people run; `visits`: scored visits; `target_visits`: visits with a target.
/// - `hits`: target visits whose shown instance is a target.
/// - `hit_rate` = hits / target_visits (micro); `hit_rate_macro` (macro).
/// - `hit_at_3` = target visits with a target ranked 1–3 / target_visits.
/// - `mrr` = mean over target visits of 1/rank of the best-ranked target (0 when no
///   target is a candidate) (micro); `mrr_macro` (macro).
/// - `coverage` = target visits whose target is a candidate / target_visits.
/// - `rotations`: visits whose shown instance differs from the previous visit's;
///   `rotations_per_day` = rotations / active person-days (days with a scored visit).
/// - `relevance_visits`: visits where some candidate has an active window with
///   normalised percentile >= the threshold; `relevance_honoured` = share of those that
///   showed such a candidate.
/// - `suppression_violations`: rotations to an instance in the `suppressed` state.
/// - `windows`: top-percentile windows (active, percentile >= threshold; watched as
///   `WindowWatch` defines) with at least one scored visit at which the instance was a
///   candidate while watched; `windows_surfaced` = share of those whose instance was
///   shown at one of those visits; `median_time_to_surface_s` = median seconds from a
///   window's start to the first visit showing it, over surfaced windows (the mean of
///   the two middle values for an even count).
/// - `exposure_gini`: mean over people with visits of the Gini coefficient of visits
///   shown per instance (instances that were ever candidates).
/// A ratio with a zero denominator is NaN and written as an empty CSV field.
public struct RunMetrics: Sendable {
  /// Pooled counts.
  public var total: MetricCounts
  /// Per-person counts, in person order.
  public var perPerson: [MetricCounts]
  @inlinable public var people: Int { perPerson.count }
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
  @inlinable public init(_ m: StandardMetrics, days: LocalDays) {
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
  @inlinable public init(
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
  @inlinable package func macro(_ rate: (MetricCounts) -> Double) -> Double {
    var sum = 0.0
    var n = 0
    for p in perPerson where p.targetVisits > 0 {
      sum += rate(p)
      n += 1
    }
    return n == 0 ? .nan : sum / Double(n)
  }

  /// The metric names, in `runs.csv` column order.
  public static let names: [String] = [
    "people", "visits", "target_visits", "hits", "hit_rate", "hit_rate_macro", "hit_at_3",
    "mrr", "mrr_macro", "coverage", "rotations", "rotations_per_day", "relevance_visits",
    "relevance_honoured", "suppression_violations", "windows", "windows_surfaced",
    "median_time_to_surface_s", "exposure_gini",
  ]

  /// The values in `names` order.
  @inlinable public var values: [Double] {
    [
      Double(people), Double(total.visits), Double(total.targetVisits), Double(total.hits),
      total.hitRate, macro(\.hitRate), total.hitRateAt3, total.mrr, macro(\.mrr),
      total.coverage, Double(total.rotations), total.rotationsPerDay,
      Double(total.relevanceVisits), total.relevanceHonouredRate,
      Double(total.suppressionViolations), Double(total.windows), total.windowsSurfacedRate,
      medianTimeToSurfaceSeconds, exposureGini,
    ]
  }

  /// The value of one metric by name, or nil for an unknown name.
  @inlinable public func value(_ name: String) -> Double? {
    guard let i = Self.names.firstIndex(of: name) else { return nil }
    return values[i]
  }
}
