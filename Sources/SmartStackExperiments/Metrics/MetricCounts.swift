import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Additive counts of one person's (or many people's) scored visits. Every metric of a
/// run is a function of these counts; see `MetricCatalog.standard` for the formulas.
///
/// A new count is a stored property, its line in `+=` and its entry in `fields` (which
/// the journal reads and writes); `MetricCountsFieldTests` checks the three agree.
public struct MetricCounts: Sendable, Hashable {
  /// Scored visits.
  public var visits = 0
  /// Visits with a target (something the person wanted).
  public var targetVisits = 0
  /// Target visits whose target instance was among the candidates.
  public var targetsInStack = 0
  /// Target visits where the shown instance was a target (rank 1).
  public var hits = 0
  /// Target visits with a target ranked 1, 2 or 3.
  public var hitsAt3 = 0
  /// Sum over target visits of 1 / rank of the best target (0 when not a candidate).
  public var reciprocalRankSum = 0.0
  /// Visits whose shown instance differs from the one before (first visit excluded).
  public var rotations = 0
  /// Distinct local days with at least one scored visit, summed over people.
  public var activeDays = 0
  /// Visits where some candidate had an active window at or above the threshold.
  public var relevanceVisits = 0
  /// Of those, visits that showed such a candidate.
  public var relevanceHonoured = 0
  /// Rotations to an instance whose relevance state was `suppressed`.
  public var suppressionViolations = 0
  /// Top-percentile windows with at least one scored visit while open.
  public var windows = 0
  /// Of those, windows whose instance was shown at one of those visits.
  public var windowsSurfaced = 0
  /// Cards on screen, summed over visits (`VisitOutcome.cards`; 0 on iPhone).
  public var cardsShown = 0
  /// Target visits whose best target was on one of the cards on screen.
  public var anyCardHits = 0
  /// Sum over those of the target's place among the cards (1…K).
  public var hitPositionSum = 0

  @inlinable public init() {}

  @inlinable public static func += (a: inout MetricCounts, b: MetricCounts) {
    a.visits += b.visits
    a.targetVisits += b.targetVisits
    a.targetsInStack += b.targetsInStack
    a.hits += b.hits
    a.hitsAt3 += b.hitsAt3
    a.reciprocalRankSum += b.reciprocalRankSum
    a.rotations += b.rotations
    a.activeDays += b.activeDays
    a.relevanceVisits += b.relevanceVisits
    a.relevanceHonoured += b.relevanceHonoured
    a.suppressionViolations += b.suppressionViolations
    a.windows += b.windows
    a.windowsSurfaced += b.windowsSurfaced
    a.cardsShown += b.cardsShown
    a.anyCardHits += b.anyCardHits
    a.hitPositionSum += b.hitPositionSum
  }

  /// hits / target visits (NaN without target visits).
  public var hitRate: Double { ratio(hits, targetVisits) }
  /// hits@3 / target visits.
  public var hitRateAt3: Double { ratio(hitsAt3, targetVisits) }
  /// Mean reciprocal rank over target visits.
  public var mrr: Double { targetVisits == 0 ? .nan : reciprocalRankSum / Double(targetVisits) }
  /// Target visits whose target was a candidate / target visits.
  public var coverage: Double { ratio(targetsInStack, targetVisits) }
  /// Rotations per active person-day.
  public var rotationsPerDay: Double { ratio(rotations, activeDays) }
  /// Relevance-critical visits that showed a top-percentile candidate / such visits.
  public var relevanceHonouredRate: Double { ratio(relevanceHonoured, relevanceVisits) }
  /// Surfaced windows / windows with visits.
  public var windowsSurfacedRate: Double { ratio(windowsSurfaced, windows) }
  /// Cards on screen per visit (NaN without visits).
  public var cardsPerVisit: Double { ratio(cardsShown, visits) }
  /// Target visits with a target on screen / target visits.
  public var anyCardHitRate: Double { ratio(anyCardHits, targetVisits) }
  /// The mean place of the target among the cards on screen, over those visits.
  public var meanHitPosition: Double { ratio(hitPositionSum, anyCardHits) }

  @inline(__always) package func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? .nan : Double(a) / Double(b) }

  /// Every count, in declaration order (the stored properties' order).
  public static let fields: [CountField] = [
    .whole("visits", \.visits),
    .whole("target_visits", \.targetVisits),
    .whole("targets_in_stack", \.targetsInStack),
    .whole("hits", \.hits),
    .whole("hits_at_3", \.hitsAt3),
    CountField(name: "reciprocal_rank_sum", value: .sum(\.reciprocalRankSum)),
    .whole("rotations", \.rotations),
    .whole("active_days", \.activeDays),
    .whole("relevance_visits", \.relevanceVisits),
    .whole("relevance_honoured", \.relevanceHonoured),
    .whole("suppression_violations", \.suppressionViolations),
    .whole("windows", \.windows),
    .whole("windows_surfaced", \.windowsSurfaced),
    .whole("cards_shown", \.cardsShown, extended: true),
    .whole("any_card_hits", \.anyCardHits, extended: true),
    .whole("hit_position_sum", \.hitPositionSum, extended: true),
  ]

  /// The counts every journal line holds (`fields` without the extended ones), in the
  /// order of a journal line's `people` and `daily` arrays.
  public static let baseFields = fields.filter { !$0.extended }
  /// The counts of a journal line whose cell has extended counts: `baseFields`, then the
  /// extended ones in declaration order.
  public static let journalFields = baseFields + fields.filter(\.extended)

  /// True when some extended count is not zero (the journal then writes every field).
  public var hasExtendedCounts: Bool {
    MetricCounts.fields.contains { $0.extended && $0.double(self) != 0 }
  }
}

/// One additive count of `MetricCounts`, as the journal reads and writes it.
public struct CountField: Sendable {
  public enum Value: Sendable {
    /// A whole number >= 0.
    case whole(WritableKeyPath<MetricCounts, Int> & Sendable)
    /// A finite sum >= 0 (of reciprocal ranks).
    case sum(WritableKeyPath<MetricCounts, Double> & Sendable)
  }

  /// snake_case name (documentation and messages).
  public var name: String
  public var value: Value
  /// False for the counts of every journal line (their positions are fixed since journal
  /// version 3); true for a count added later: a cell's line holds every field only when
  /// some extended count of the cell is not zero, so lines of runs without them keep
  /// their bytes (a multi-card count on a phone run).
  public var extended: Bool

  public init(name: String, value: Value, extended: Bool = false) {
    self.name = name
    self.value = value
    self.extended = extended
  }

  public static func whole(_ name: String, _ path: WritableKeyPath<MetricCounts, Int> & Sendable, extended: Bool = false) -> CountField {
    CountField(name: name, value: .whole(path), extended: extended)
  }

  /// The count of `c` as a number.
  public func double(_ c: MetricCounts) -> Double {
    switch value {
    case .whole(let path): Double(c[keyPath: path])
    case .sum(let path): c[keyPath: path]
    }
  }

  /// Sets the count of `c` from `x`; false when `x` is not a valid count (a whole
  /// number in 0...2^53, or a finite sum >= 0).
  public func set(_ c: inout MetricCounts, _ x: Double) -> Bool {
    switch value {
    case .whole(let path):
      guard x >= 0, x <= 9_007_199_254_740_992, x.rounded() == x else { return false }
      c[keyPath: path] = Int(x)
    case .sum(let path):
      guard x.isFinite, x >= 0 else { return false }
      c[keyPath: path] = x
    }
    return true
  }
}
