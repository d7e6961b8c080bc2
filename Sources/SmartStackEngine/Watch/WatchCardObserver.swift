import SmartStackBase
import SmartStackData

/// The watch stack's card rules, applied by the engine after the strategy ranks: the
/// cards a wrist raise presents are the pinned cards first, in the person's order, then
/// the cards the strategy ranked, in its order (the shown card first, then the rest as
/// `VisitOutcome.targetRank` counts them); the first K are on screen. No score moves a
/// pinned card, and a strategy never sees one: the driver keeps pinned cards out of
/// the strategy's candidates and gives them here (`pinned`) before each raise.
///
/// It wraps the run's observer and tells it each visit as presented
/// (`presented(_:pinned:capacity:targets:)`): the top card (`shown`, decided by
/// `.pinnedCard` when a card is pinned), the best target's place among all presented
/// cards (`targetRank`), every presented card (`candidateCount`), and the cards on
/// screen (`cards`, min(K, candidates)). The other events pass through unchanged.
public struct WatchCardObserver<Inner: OutcomeObserver>: OutcomeObserver {
  /// The run's observer, told the presented visits.
  public var inner: Inner
  /// K: the most cards a raise shows, at least 1.
  public let capacity: Int
  /// The pinned cards of the coming raise, top first (set by the driver before it).
  public var pinned: [Int32] = []
  /// The person's last raise as the inner observer was told it (nil before the first):
  /// the driver reads it for the person's response instead of presenting the visit again.
  public var last: VisitOutcome? = nil

  public init(_ inner: Inner, capacity: Int) {
    precondition(capacity >= 1, "a watch stack shows at least one card")
    self.inner = inner
    self.capacity = capacity
  }

  /// `outcome`, the engine's decision over the rankable cards, as presented with the
  /// pinned cards `pinned` on top; `previous` and `rotated` are left as they are.
  ///
  /// - the top card is `pinned[0]` (rule `.pinnedCard`), else the strategy's;
  /// - a target's place is 1 + its index in `pinned` when it is pinned, else
  ///   `pinned.count` + its place in the strategy's presented order (0: nowhere);
  /// - the candidates are the pinned cards and the strategy's; `cards` is
  ///   min(`capacity`, candidates).
  ///
  /// - Complexity: O(p·t) for p pinned cards and t targets.
  @inlinable public static func presented(
    _ outcome: VisitOutcome, pinned: [Int32], capacity: Int, targets: ArraySlice<Int32>
  ) -> VisitOutcome {
    var o = outcome
    if let top = pinned.first {
      var place = 0
      for (j, card) in pinned.enumerated() where targets.contains(card) {
        place = j + 1
        break
      }
      if place == 0 && outcome.targetRank > 0 { place = pinned.count + outcome.targetRank }
      o.targetRank = place
      o.shown = top
      o.candidateCount = pinned.count + outcome.candidateCount
      o.rule = VisitRule.pinnedCard.name
      o.decidedBy = .pinnedCard
      o.shownState = .none
      o.relevanceHonoured = false
    }
    o.cards = Int32(min(capacity, o.candidateCount))
    return o
  }

  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    last = nil
    pinned = []
    inner.beginPerson(person, instances: instances)
  }

  @inlinable public mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    var o = Self.presented(outcome, pinned: pinned, capacity: capacity, targets: pinned.isEmpty ? [] : targets())
    let previous = last?.shown ?? -1
    o.previous = previous
    o.rotated = previous >= 0 && o.shown != previous
    last = o
    inner.observe(o, targets: targets(), scores: scores, features: features)
  }

  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {
    inner.availabilityChanged(instance: instance, available: available)
  }
  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    inner.windowReachedThreshold(instance: instance, start: start)
  }
  @inlinable public mutating func windowEnded(instance: Int32) { inner.windowEnded(instance: instance) }
  @inlinable public mutating func endPerson(_ person: Int32) { inner.endPerson(person) }
  @inlinable public mutating func responded(_ response: VisitResponse) { inner.responded(response) }
}
