import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `scores`: ranks by scores from an outside model (`--scores FILE`, `ScoreFile`).
///
/// Score of candidate `i` = its latest outside score, `StackFeatures.outsideScore[i]`:
/// the engine receives each row of the person's score file as an event at its
/// timestamp (`ObservedEvent.score`; at one instant after relevance entries and before
/// visits, donations and outcomes), so at a visit at `now` it is the latest score dated
/// `<= now` (at equal times the later row), and `-infinity` before the instance's first,
/// which ranks below every scored candidate. Unscored candidates and equal scores are
/// ordered by the engine's tie-break (more recent donation, more donations, kind name,
/// stack position). The stack's rules (a pin, Smart Rotate off, the rotation limit) are
/// applied by the engine afterwards, as for every strategy.
///
/// An `InstanceScoringStrategy` reading only `.outsideScores`: the engine rescores an
/// instance when a score for it arrives and otherwise reuses the last decision.
/// O(1) per rescored instance.
///
/// Without a score file every candidate has no score; the commands refuse `scores`
/// without `--scores` (a usage error naming the option).
public struct ScoresStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(
    name: "scores", summary: "the latest score from an outside model (--scores FILE); unscored candidates last",
    needs: .scores)

  public init(parameters: StrategyParameters) {}

  @inlinable public var reads: VisitInputs { .outsideScores }

  @inlinable public func score(_ instance: InstanceView) -> Double { instance.outsideScore }

  @inlinable public func rule(top: InstanceView?) -> StaticString { "latest outside score" }
}
