import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Additive counts of one person's (or many people's) scored visits. Every metric of a
/// run is a function of these counts; see `MetricDefinitions` for the formulas.
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
  }

  /// hits / target visits (NaN without target visits).
  @inlinable public var hitRate: Double { ratio(hits, targetVisits) }
  /// hits@3 / target visits.
  @inlinable public var hitRateAt3: Double { ratio(hitsAt3, targetVisits) }
  /// Mean reciprocal rank over target visits.
  @inlinable public var mrr: Double { targetVisits == 0 ? .nan : reciprocalRankSum / Double(targetVisits) }
  /// Target visits whose target was a candidate / target visits.
  @inlinable public var coverage: Double { ratio(targetsInStack, targetVisits) }
  /// Rotations per active person-day.
  @inlinable public var rotationsPerDay: Double { ratio(rotations, activeDays) }
  /// Relevance-critical visits that showed a top-percentile candidate / such visits.
  @inlinable public var relevanceHonouredRate: Double { ratio(relevanceHonoured, relevanceVisits) }
  /// Surfaced windows / windows with visits.
  @inlinable public var windowsSurfacedRate: Double { ratio(windowsSurfaced, windows) }

  @inlinable @inline(__always) package func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? .nan : Double(a) / Double(b) }
}
