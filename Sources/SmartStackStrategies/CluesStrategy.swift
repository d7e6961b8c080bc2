import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `clues`: the watchOS Smart Stack's own order, the documented default for what Apple
/// leaves unsaid (open question Q11; docs/watchos.md, "The watch stack").
///
/// Score of card `i` = its clue priority at the raise: with (k, s, j) the
/// `PriorityOrderWeighing` rank of the card's best matching clue (date kind `scheduled`
/// 0, `default` 1, `informational` 2; source `relevance()` 0, relevant intent 1; j the
/// clue's index in its source, at most 999), the score is −(10⁶·k + 10³·s + j), so a
/// smaller rank comes first. The watch driver sets it before each raise as the card's
/// `StackFeatures.outsideScore` (`WatchPlatform.Raise.priority`; −∞ for a card with no
/// matching clue, which only a pinned card can be, and pinned cards are not ranked).
/// Equal priorities (two apps' first clues, say) are ordered by the engine's tie-break
/// (more recent donation, more donations, kind name, stack position): the "behavioural
/// prior" Q11 suggests after the clue order.
///
/// It needs a watchOS scenario (`StrategyNeeds.watch`): elsewhere every card would have
/// no priority. An `InstanceScoringStrategy` reading `.outsideScores`: O(1) per rescored
/// card.
public struct CluesStrategy: InstanceScoringStrategy {
  public static let info = StrategyInfo(
    name: "clues",
    summary: "watchOS: the system's clue priority (date kind, relevance() before intents, clue order), then the tie-break",
    needs: .watch)

  public init(parameters: StrategyParameters) {}

  @inlinable public var reads: VisitInputs { .outsideScores }

  @inlinable public func score(_ instance: InstanceView) -> Double { instance.outsideScore }

  @inlinable public func rule(top: InstanceView?) -> StaticString { "clue priority" }
}
