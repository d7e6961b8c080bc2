import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// One metric of the reports, declared once: every table iterates these declarations.
///
/// The declarations of `MetricCatalog.standard` are the one place a metric is defined.
/// From them come the metric columns of `runs.csv` (order of the catalog), the columns
/// of `daily.csv` (those with `daily`), the rows of `summary.csv` and `paired.csv` (those
/// with a `statisticsRank`, by rank), the columns of `people.csv` (those with a
/// `person` value, catalog order), `RunMetrics.names`/`values`/`value(_:)` (what tuning
/// maximises), `UnitMetric.standard` and the "lower is better" of the printed tables.
/// The journal holds the additive `MetricCounts` (`MetricCounts.fields`), never metric
/// values, so a new metric computed from existing counts needs no journal change.
///
/// Adding a metric:
/// 1. if it needs a new additive count: a stored property of `MetricCounts`, its line in
///    `+=` and its entry in `MetricCounts.fields` (all in MetricCounts.swift; a test
///    checks the three agree), and the code that counts it (`StandardMetrics.observe`);
/// 2. one `MetricDeclaration` in `MetricCatalog.standard` below.
///
/// Metric groups: a declaration belongs to a `MetricGroup`. The columns and rows of the
/// `standard` group are always written; those of another group only when the group is
/// present in the experiment, i.e. when some run's pooled counts satisfy the group's
/// `isPresent` (e.g. a multi-card group `{ $0.cardsShown > $0.visits }`: some visit
/// showed more than one card). So an experiment without such runs keeps its bytes. Within
/// the written tables, a present group's columns keep their catalog position; its
/// statistics rows keep their rank. Presence is decided on the runs a table is written
/// from: the complete experiment for `batch`, `--resume` and `merge` (so they agree), a
/// shard's own cells for its partial `runs.csv`, `daily.csv` and `people.csv`.
public struct MetricDeclaration: Sendable {
  /// Which way is better, for the printed tables and `report --top`.
  public enum Direction: Sendable, Hashable {
    case higherIsBetter, lowerIsBetter
  }

  /// The CSV column (and `metric` value of `summary.csv`/`paired.csv`).
  public var name: String
  /// The exact definition, in words and formula.
  public var definition: String
  /// The unit of a value (`visits`, `share of target visits`, `seconds`, …).
  public var unit: String
  public var direction: Direction
  public var group: MetricGroup
  /// The run's value (`runs.csv`): from the pooled counts, the per-person counts, or
  /// what else `RunMetrics` holds. NaN when undefined.
  public var run: @Sendable (RunMetrics) -> Double
  /// The value of one person (or one day: `daily.csv`) from that person's counts and
  /// exposure Gini (NaN for a day); nil when the metric has no per-person value.
  public var person: (@Sendable (MetricCounts, Double) -> Double)?
  /// Position among the `summary.csv`/`paired.csv` metrics (ascending); nil for none.
  /// Requires `person`.
  public var statisticsRank: Int?
  /// A `daily.csv` column (requires `person`, evaluated on a day's pooled counts).
  public var daily: Bool

  public init(
    _ name: String, definition: String, unit: String, direction: Direction = .higherIsBetter,
    group: MetricGroup = .standard, statisticsRank: Int? = nil, daily: Bool = false,
    run: @escaping @Sendable (RunMetrics) -> Double,
    person: (@Sendable (MetricCounts, Double) -> Double)? = nil
  ) {
    self.name = name
    self.definition = definition
    self.unit = unit
    self.direction = direction
    self.group = group
    self.run = run
    self.person = person
    self.statisticsRank = person == nil ? nil : statisticsRank
    self.daily = person != nil && daily
  }

  /// A whole count of `MetricCounts`: the pooled count per run, the person's per person.
  public static func count(
    _ name: String, _ count: KeyPath<MetricCounts, Int> & Sendable, definition: String,
    direction: Direction = .higherIsBetter, group: MetricGroup = .standard, daily: Bool = false
  ) -> MetricDeclaration {
    MetricDeclaration(
      name, definition: definition, unit: "count", direction: direction, group: group, daily: daily,
      run: { Double($0.total[keyPath: count]) }, person: { c, _ in Double(c[keyPath: count]) })
  }

  /// A rate of counts: pooled over the run's visits per run (micro), the person's own
  /// per person.
  public static func rate(
    _ name: String, _ rate: @escaping @Sendable (MetricCounts) -> Double, definition: String, unit: String,
    direction: Direction = .higherIsBetter, group: MetricGroup = .standard, statisticsRank: Int? = nil,
    daily: Bool = false
  ) -> MetricDeclaration {
    MetricDeclaration(
      name, definition: definition, unit: unit, direction: direction, group: group,
      statisticsRank: statisticsRank, daily: daily, run: { rate($0.total) }, person: { c, _ in rate(c) })
  }
}

/// A set of metrics whose columns appear together (see `MetricDeclaration`).
public struct MetricGroup: Sendable {
  /// The group's name (for documentation and tests).
  public var name: String
  /// True when a run with these pooled counts makes the group's columns appear.
  public var isPresent: @Sendable (MetricCounts) -> Bool

  public init(_ name: String, isPresent: @escaping @Sendable (MetricCounts) -> Bool) {
    self.name = name
    self.isPresent = isPresent
  }

  /// The metrics of every experiment.
  public static let standard = MetricGroup("standard") { _ in true }
  /// The metrics of a surface of several cards, the watch (`VisitOutcome.cards`): present
  /// when some run showed a card, i.e. only in experiments with a watch source.
  public static let multiCard = MetricGroup("multi_card") { $0.cardsShown > 0 }
  public var isStandard: Bool { name == MetricGroup.standard.name }
}

/// An ordered list of metric declarations (`standard`: the reports' metrics).
public struct MetricCatalog: Sendable {
  public var declarations: [MetricDeclaration]

  public init(_ declarations: [MetricDeclaration]) { self.declarations = declarations }

  /// The declarations present in an experiment whose runs have `runs` (the standard
  /// group always; another group when some run's pooled counts satisfy it).
  public func present(in runs: [RunMetrics]) -> MetricCatalog {
    var groups: [String: Bool] = [:]  // looked up only; order comes from `declarations`
    return MetricCatalog(
      declarations.filter { d in
        if d.group.isStandard { return true }
        if let known = groups[d.group.name] { return known }
        let present = runs.contains { d.group.isPresent($0.total) }
        groups[d.group.name] = present
        return present
      })
  }

  /// Column names, in order.
  public var names: [String] { declarations.map(\.name) }
  /// The `summary.csv`/`paired.csv` metrics, by rank.
  public var statistics: [UnitMetric] {
    declarations.enumerated().filter { $0.element.statisticsRank != nil }
      .sorted { ($0.element.statisticsRank!, $0.offset) < ($1.element.statisticsRank!, $1.offset) }
      .map { UnitMetric($0.element.name, $0.element.person!) }
  }
  /// The `daily.csv` metrics, in order.
  public var daily: [MetricDeclaration] { declarations.filter(\.daily) }
  /// The `people.csv` metrics (those with a per-person value), in order.
  public var perPerson: [MetricDeclaration] { declarations.filter { $0.person != nil } }
  /// The metrics where a smaller value is better.
  public var lowerIsBetter: [String] { declarations.filter { $0.direction == .lowerIsBetter }.map(\.name) }

  /// The standard metrics, in `runs.csv` column order. Micro = pooled over all scored
  /// visits of the run; macro = the unweighted mean, over people with at least one target
  /// visit, of each person's own value. A ratio with a zero denominator is NaN (an empty
  /// CSV field).
  public static let standard = MetricCatalog([
    MetricDeclaration(
      "people", definition: "people run", unit: "people", run: { Double($0.people) }),
    .count("visits", \.visits, definition: "scored visits", daily: true),
    .count("target_visits", \.targetVisits, definition: "visits with a target (something the person wanted)", daily: true),
    .count("hits", \.hits, definition: "target visits whose shown instance is a target", daily: true),
    .rate(
      "hit_rate", \.hitRate, definition: "hits / target_visits (micro)", unit: "share of target visits",
      statisticsRank: 0, daily: true),
    MetricDeclaration(
      "hit_rate_macro", definition: "hit_rate (macro)", unit: "share of target visits",
      run: { $0.macro(\.hitRate) }),
    .rate(
      "hit_at_3", \.hitRateAt3, definition: "target visits with a target ranked 1-3 / target_visits",
      unit: "share of target visits", statisticsRank: 1),
    .rate(
      "mrr", \.mrr,
      definition: "mean over target visits of 1/rank of the best-ranked target (0 when no target is a candidate) (micro)",
      unit: "reciprocal rank", statisticsRank: 2),
    MetricDeclaration(
      "mrr_macro", definition: "mrr (macro)", unit: "reciprocal rank", run: { $0.macro(\.mrr) }),
    .rate(
      "coverage", \.coverage, definition: "target visits whose target is a candidate / target_visits",
      unit: "share of target visits", statisticsRank: 3),
    .count(
      "rotations", \.rotations, definition: "visits whose shown instance differs from the previous visit's",
      direction: .lowerIsBetter, daily: true),
    .rate(
      "rotations_per_day", \.rotationsPerDay,
      definition: "rotations / active person-days (local days with a scored visit)", unit: "rotations per day",
      direction: .lowerIsBetter, statisticsRank: 4),
    .count(
      "relevance_visits", \.relevanceVisits,
      definition: "visits where some candidate has an active window with normalised percentile >= the threshold"),
    .rate(
      "relevance_honoured", \.relevanceHonouredRate,
      definition: "relevance_visits that showed such a candidate / relevance_visits", unit: "share of visits",
      statisticsRank: 5),
    MetricDeclaration(
      "suppression_violations", definition: "rotations to an instance in the suppressed state (per person: undefined without visits)",
      unit: "count", direction: .lowerIsBetter, statisticsRank: 8,
      run: { Double($0.total.suppressionViolations) },
      person: { c, _ in c.visits > 0 ? Double(c.suppressionViolations) : .nan }),
    .count(
      "windows", \.windows,
      definition: "top-percentile windows (WindowWatch) with a scored visit at which the instance was a candidate while watched"),
    .rate(
      "windows_surfaced", \.windowsSurfacedRate,
      definition: "windows whose instance was shown at one of those visits / windows", unit: "share of windows",
      statisticsRank: 6),
    MetricDeclaration(
      "median_time_to_surface_s",
      definition: "median seconds from a surfaced window's start to the first visit showing it (mean of the two middle values for an even count)",
      unit: "seconds", direction: .lowerIsBetter, run: { $0.medianTimeToSurfaceSeconds }),
    MetricDeclaration(
      "exposure_gini",
      definition: "Gini coefficient of visits shown per instance (instances that were ever candidates); per run the mean over people with visits",
      unit: "Gini coefficient (0-1)", direction: .lowerIsBetter, statisticsRank: 7,
      run: { $0.exposureGini }, person: { _, gini in gini }),
    .rate(
      "cards_per_visit", \.cardsPerVisit,
      definition: "cards on screen per visit, min(K, candidates) on a watch (docs/watchos.md)", unit: "cards",
      group: .multiCard, statisticsRank: 9),
    .rate(
      "any_card_hit_rate", \.anyCardHitRate,
      definition: "target visits whose target was on one of the cards on screen / target_visits",
      unit: "share of target visits", group: .multiCard, statisticsRank: 10),
    .rate(
      "mean_hit_position", \.meanHitPosition,
      definition: "over those visits, the mean place (1 = top) of the first wanted card on screen", unit: "place",
      direction: .lowerIsBetter, group: .multiCard, statisticsRank: 11),
  ])
}
