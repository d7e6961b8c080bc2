/// `relevance`: the highest active normalised relevance; never rotates to a suppressed
/// instance.
///
/// Score of candidate `i`, with `p(i)` its normalised percentile (DESIGN.md §4):
/// - `2 + p(i)` when `i` is `active` (score > 0 inside a window);
/// - `1` when `i` is the instance shown before the visit and not suppressed (nothing
///   active: stay);
/// - `0` when `i` is `none` or `expired`;
/// - `-0.5` when `i` is suppressed and shown before the visit; `-1` when suppressed.
/// So an active window always wins; without one the stack stays where it is; and a
/// suppressed instance can never beat the instance already shown, hence is never
/// rotated to.
public struct RelevanceStrategy: RankingStrategy {
  public static let name = "relevance"
  public static let summary = "the active window with the highest normalised relevance; never rotates to suppressed"
  public static let observesOutcomes = false
  /// Scores never read donations: a donation only moves the tie-break order.
  public static let scoresDependOnDonations = false
  public init(parameters: StrategyParameters) {}
  /// Relevance states and percentiles, and the instance shown before the visit.
  public var rankingInputs: RankingInputs { [.relevance, .shown] }
  /// Each score reads only its own instance (and whether it is shown).
  public static let scoresArePerInstance = true

  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let anyActive = Self.withScorer(context) { score in
      var seen: UInt64 = 0
      ranking.setCandidateScores(context) { i in score(i, &seen) }
      return seen != 0
    }
    ranking.rule = anyActive ? "highest active relevance" : "no active relevance: stay"
  }

  /// Scores the changed instances only; the rule still looks at every candidate.
  @inline(__always)
  public mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    let anyActive = Self.withScorer(context) { score in
      var ignored: UInt64 = 0
      ranking.setScores(of: changed, context) { i in score(i, &ignored) }
      var seen: UInt8 = 0
      context.features.relevanceKind.withUnsafeBufferPointer { kinds in
        context.features.available.withUnsafeBufferPointer { available in
          for i in 0..<min(kinds.count, available.count) {
            seen |= (available[i] ? 1 : 0) & (kinds[i] == .active ? 1 : 0)
          }
        }
      }
      return seen != 0
    }
    ranking.rule = anyActive ? "highest active relevance" : "no active relevance: stay"
  }

  /// Calls `body` with the score of instance `i` (`0 <= i < instanceCount`) by the
  /// definition above, which also ORs all ones into its second argument when `i` is
  /// active.
  ///
  /// The definition as look-ups, without a branch on the state (which mispredicted on a
  /// fresh decision: the states of ten instances follow no pattern):
  /// `base[kind * 2 + isShown]`, then `activeMask[kind]`, all ones for `active`, which
  /// lets the percentile through (NaN counts as 0), else zero, which adds +0.0.
  @inline(__always)
  static func withScorer<R>(
    _ context: StackContext, _ body: ((Int, inout UInt64) -> Double) -> R
  ) -> R {
    let f = context.features
    let shown = Int(context.shown)
    let table: Table = (
      0, 1,  // none
      2, 2,  // active (plus the percentile)
      -1, -0.5,  // suppressed
      0, 1,  // expired
      0, ~0, 0, 0)
    return withUnsafeBytes(of: table) { t in
      f.relevanceKind.withUnsafeBufferPointer { kinds in
        f.percentile.withUnsafeBufferPointer { percentiles in
          let n = min(kinds.count, percentiles.count)
          return body { i, seen in
            guard i < n else { return 0 }
            let kind = Int(kinds[i].rawValue & 3)
            let isShown = i == shown ? 1 : 0
            let base = t.load(fromByteOffset: (kind &* 2 &+ isShown) &* 8, as: Double.self)
            let activeMask = t.load(fromByteOffset: 64 &+ kind &* 8, as: UInt64.self)
            let p = percentiles[i]
            let numberMask = UInt64(bitPattern: 0 &- Int64(p == p ? 1 : 0))
            seen |= activeMask
            return base + Double(bitPattern: p.bitPattern & activeMask & numberMask)
          }
        }
      }
    }
  }

  /// Eight base scores (by `kind * 2 + isShown`) and four percentile masks (by kind).
  typealias Table = (Double, Double, Double, Double, Double, Double, Double, Double, UInt64, UInt64, UInt64, UInt64)
}
