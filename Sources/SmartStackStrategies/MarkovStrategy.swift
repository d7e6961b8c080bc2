import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `markov`: first-order transitions between donated instances.
///
/// The strategy counts, over the person's donations in time order, how often a
/// donation matched to instance `b` followed one matched to `a` (`T[a][b]`; a donation
/// matching several instances counts its first, one matching none is skipped).
/// Score of candidate `i` = `T[last][i]`, where `last` is the instance of the latest
/// matched donation; 0 for all before the first one. With `self-transitions = 0`,
/// repeats (`a` followed by `a`) are not counted and `last` itself scores 0.
///
/// - Complexity: O(1) per donation and per candidate; memory O(n²).
public struct MarkovStrategy: PureRankingStrategy {
  public static let info = StrategyInfo(
    name: "markov", summary: "the most frequent successor of the last donated instance",
    parameters: [
      StrategyParameterSpec(
        "self-transitions", default: 1, range: 0...1, integer: true,
        help: "1 = count a repeat of the same instance as a transition; 0 = ignore repeats")
    ])
  @usableFromInline let countSelf: Bool
  @usableFromInline var n = 0
  @usableFromInline var transitions: [Int32] = []
  @usableFromInline var last: Int32 = -1

  public init(parameters: StrategyParameters) {
    countSelf = parameters["self-transitions"] == 1
  }

  /// Memberwise, as the synthesised `==` would be, but inlinable: the engine compares
  /// the strategy around each relevance entry (`PureRankingStrategy`), from another module.
  @inlinable public static func == (a: Self, b: Self) -> Bool {
    a.countSelf == b.countSelf && a.n == b.n && a.last == b.last && a.transitions == b.transitions
  }

  /// The scores are the strategy's own transitions, learnt from donations. Declaring
  /// `.donations` (wider than what `scores` reads, which is allowed) ends the decision
  /// at each donation before the engine would compare the transition tables (`==`).
  @inlinable public var reads: VisitInputs { .donations }

  public mutating func begin(_ setup: StrategySetup) {
    n = setup.instanceCount
    transitions = Array(repeating: 0, count: n * n)
    last = -1
  }

  /// Always inlined: a call out of line bound the event's `instances` slice, a retain
  /// and a release per donation.
  @inline(__always)
  @inlinable public mutating func observe(_ event: ObservedEvent, context: StackContext) {
    guard case .donation(_, let instances) = event, let current = instances.first else { return }
    if last >= 0 && (countSelf || last != current) {
      transitions[Int(last) * n + Int(current)] &+= 1
    }
    last = current
  }

  @inline(__always)
  @inlinable public func scores(_ visit: VisitView, into ranking: inout Ranking) {
    guard last >= 0 else {
      ranking.rule = "no donation yet"
      return
    }
    let row = Int(last) * n
    // Through a buffer: the array's subscript checked every index against the bounds.
    // `i < n`, so `row + i` is inside the n × n table.
    transitions.withUnsafeBufferPointer { table in
      ranking.setCandidateScores(visit) { i in Double(table[row + i]) }
    }
    ranking.rule = "transition from last donation"
  }
}
