import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `context-mfu`: most frequently used at the person's current place.
///
/// Let `p` be the visit's place (`context.device[.place]`, from `--context` or a
/// scenario's context routine) and `D_p` the person's earlier donations matched to some
/// instance while their place was `p` (the place at the donation's instant). When `p` is
/// known and `|D_p| >= min-donations`, the score of candidate `i` is the number of
/// donations in `D_p` matched to `i`; otherwise (no context, an unknown place, or too few
/// donations there yet) it is `mfu`'s score, the number of all earlier donations matched
/// to `i`. Ties follow the engine's order (more recent last donation first, …).
///
/// - Complexity: O(m) per donation matched to m instances, O(n) per visit for n
///   instances; memory O(places × n).
public struct ContextMostFrequentlyUsedStrategy: RankingStrategy {
  public static let info = StrategyInfo(
    name: "context-mfu",
    summary: "the most earlier donations at the person's current place (--context); all places while it has too few",
    parameters: [
      StrategyParameterSpec(
        "min-donations", default: 1, range: 1...100_000, integer: true,
        help: "donations at the current place needed before its counts are used")
    ],
    needs: .context)
  @usableFromInline let minDonations: Int32
  @usableFromInline var instanceCount = 0
  /// `counts[place * instanceCount + i]`: donations matched to `i` at `place`.
  @usableFromInline var counts: [Int32] = []
  /// `matched[place]`: donations matched to some instance at `place`.
  @usableFromInline var matched: [Int32] = []

  public init(parameters: StrategyParameters) {
    minDonations = Int32(parameters["min-donations"])
  }

  public mutating func begin(_ setup: StrategySetup) {
    instanceCount = setup.instanceCount
    counts = []
    matched = []
  }

  @inlinable public mutating func observe(_ event: ObservedEvent, context: StackContext) {
    guard case .donation(_, let instances) = event, !instances.isEmpty else { return }
    let place = Int(context.device[.place])
    guard place >= 0 else { return }
    if place >= matched.count {
      matched += Array(repeating: 0, count: place + 1 - matched.count)
      counts += Array(repeating: 0, count: matched.count * instanceCount - counts.count)
    }
    matched[place] += 1
    for i in instances { counts[place * instanceCount + Int(i)] += 1 }
  }

  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let place = Int(context.device[.place])
    if place >= 0 && place < matched.count && matched[place] >= minDonations {
      ranking.rule = "most donations at this place"
      let base = place * instanceCount
      ranking.setCandidateScores(context) { i in Double(counts[base + i]) }
    } else {
      ranking.rule = "most donations (place unknown or new)"
      ranking.setCandidateScores(context) { i in Double(context.features.donationCount[i]) }
    }
  }
}
