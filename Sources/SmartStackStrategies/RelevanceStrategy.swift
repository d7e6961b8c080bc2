import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `relevance`: the highest active normalised relevance; never rotates to a suppressed
/// instance.
///
/// Score of candidate `i`, with `p(i)` its normalised percentile (README, "Relevance"):
/// - `2 + p(i)` when `i` is `active` (score > 0 inside a window);
/// - `1` when `i` is the instance shown before the visit and not suppressed (nothing
///   active: stay);
/// - `0` when `i` is `none` or `expired`;
/// - `-0.5` when `i` is suppressed and shown before the visit; `-1` when suppressed.
/// So an active window always wins; without one the stack stays where it is; and a
/// suppressed instance can never beat the instance already shown, hence is never
/// rotated to.
public struct RelevanceStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(
    name: "relevance",
    summary: "the active window with the highest normalised relevance; never rotates to suppressed")
  public init(parameters: StrategyParameters) {}
  /// Relevance states and percentiles, and whether the instance is the one shown.
  @inlinable public var reads: VisitInputs { [.relevance, .shown] }

  /// The definition above as look-ups, without a branch on the state (which
  /// mispredicts on a fresh decision: the states of ten instances follow no pattern):
  /// `base[kind * 2 + isShown]`, plus the percentile when active (NaN counts as 0).
  @inline(__always)
  @inlinable public func score(_ instance: InstanceView) -> Double {
    let kind = Int(instance.relevanceKind.rawValue & 3)
    let base = Self.base[kind &* 2 &+ (instance.isShown ? 1 : 0)]
    let p = instance.percentile
    return base + (kind == Int(RelevanceState.Kind.active.rawValue) && p == p ? p : 0)
  }

  /// An active candidate scores at least 2 and any other at most 1, so some candidate
  /// is active exactly when the top is.
  @inlinable public func rule(top: InstanceView?) -> StaticString {
    top?.relevanceKind == .active ? "highest active relevance" : "no active relevance: stay"
  }

  /// Base scores by `kind * 2 + isShown`: none 0/1, active 2/2, suppressed -1/-0.5,
  /// expired 0/1.
  @usableFromInline static let base = SIMD8<Double>(0, 1, 2, 2, -1, -0.5, 0, 1)
}
