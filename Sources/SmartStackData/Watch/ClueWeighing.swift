/// How the members of one relevance group are weighed when several have matching clues
/// at once: the system suggests one (reference rule 32), and Apple does not say which
/// (open question Q11). `WatchApp.evaluate` asks a `ClueWeighing`; the default is
/// `PriorityOrderWeighing`. Write your own to study another rule.
public protocol ClueWeighing: Sendable {
  /// The index in `candidates` of the member suggested. `candidates` holds at least two
  /// members, in the app's widget order, each with at least one matching clue.
  func winner(of candidates: [GroupCandidate]) -> Int
}

/// A member of a relevance group with the clues that match it now.
public struct GroupCandidate: Sendable, Hashable {
  /// The widget's index in the app, and its kind.
  public var widget: Int
  public var kind: String
  /// Its matching clues, relevance clues first in priority order, then relevant intents.
  public var matches: [MatchingClue]
}

/// What a weighing knows of one matching clue.
public struct MatchingClue: Sendable, Hashable {
  public var source: ClueSource
  /// The index in its source (`EvaluatedClue.index`).
  public var index: Int
  /// The clue's `DateKind`; `default` for clues without one.
  public var dateKind: WatchClueContext.DateKind

  public init(source: ClueSource, index: Int, dateKind: WatchClueContext.DateKind) {
    self.source = source
    self.index = index
    self.dateKind = dateKind
  }
}

/// The default weighing (Q11's recommended assumption, without a behavioural prior).
///
/// A matching clue's rank is the tuple (date kind, source, index), compared in order:
/// date kind `scheduled` < `default` < `informational` (Apple's hints: scheduled has
/// "increased priority", informational "slightly lower priority"; compared only when
/// `usesDateKind`); source `relevance` < `intent`; then the index (priority order). A
/// member's rank is its best (smallest) clue rank. The member with the smallest rank wins;
/// at equal ranks, the first in the app's widget order.
public struct PriorityOrderWeighing: ClueWeighing, Hashable {
  /// Whether `DateKind` counts (true) or only the order does (false).
  public var usesDateKind: Bool

  public init(usesDateKind: Bool = true) { self.usesDateKind = usesDateKind }

  /// The rank of one clue (smaller is better).
  public func rank(_ clue: MatchingClue) -> (Int, Int, Int) {
    let kind: Int
    switch clue.dateKind {
    case .scheduled: kind = 0
    case .default: kind = 1
    case .informational: kind = 2
    }
    return (usesDateKind ? kind : 1, clue.source == .relevance ? 0 : 1, clue.index)
  }

  public func winner(of candidates: [GroupCandidate]) -> Int {
    var best = 0
    var bestRank = (Int.max, Int.max, Int.max)
    for (i, candidate) in candidates.enumerated() {
      guard let rank = candidate.matches.map(rank).min(by: <) else { continue }
      if rank < bestRank {  // strict: ties keep the earlier widget
        best = i
        bestRank = rank
      }
    }
    return best
  }
}
