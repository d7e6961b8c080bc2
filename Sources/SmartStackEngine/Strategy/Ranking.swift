import SmartStackBase
import SmartStackData

/// Scores written by a strategy at one visit, indexed by instance.
public struct Ranking: Sendable {
  /// One score per instance. Before `rank` is called every candidate holds 0 and every
  /// non-candidate holds minus infinity; only candidates can be shown.
  public var scores: [Double]
  /// A short name for the rule that decided, for `--explain` traces (optional).
  public var rule: StaticString = "score"

  @inlinable public init(instanceCount: Int) {
    scores = Array(repeating: -Double.infinity, count: instanceCount)
  }

  /// Sets `scores[i] = score(i)` for every candidate `i` in `changed`, in index order
  /// (how an instance-scoring strategy is rescored); other instances keep their score.
  @inline(__always)
  @inlinable public mutating func setScores(of changed: ChangedInstances, _ context: StackContext, _ score: (Int) -> Double) {
    context.features.available.withUnsafeBufferPointer { available in
      scores.withUnsafeMutableBufferPointer { s in
        for i in changed where i < s.count && i < available.count && available[i] { s[i] = score(i) }
      }
    }
  }

  /// Sets `scores[i] = score(i)` for every candidate `i` of `context`, in index order;
  /// other instances keep their score.
  ///
  /// The same as `for i in 0..<n where context.isCandidate(i) { scores[i] = score(i) }`,
  /// but with one copy-on-write uniqueness check for the whole array instead of one per
  /// write (a runtime call the optimiser cannot always hoist out of the loop).
  @inline(__always)
  @inlinable public mutating func setCandidateScores(_ context: StackContext, _ score: (Int) -> Double) {
    context.features.available.withUnsafeBufferPointer { available in
      scores.withUnsafeMutableBufferPointer { s in
        for i in 0..<min(s.count, available.count) where available[i] { s[i] = score(i) }
      }
    }
  }

  /// Sets `scores[i] = score(i)` for every candidate `i` of the visit, in index order
  /// (for `PureRankingStrategy.scores`); other instances keep their score.
  @inline(__always)
  @inlinable public mutating func setCandidateScores(_ visit: VisitView, _ score: (Int) -> Double) {
    let available = visit.available
    scores.withUnsafeMutableBufferPointer { s in
      for i in 0..<min(s.count, available.count) where available[i] { s[i] = score(i) }
    }
  }
}
