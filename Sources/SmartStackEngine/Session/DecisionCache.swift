import SmartStackBase
import SmartStackData

/// Decision reuse: when a `StackSession` may decide a visit without calling the
/// strategy's `rank`, and what it keeps of the last ranked visit to do so.
///
/// **Policy** (fixed for the run, from the refinement the strategy conforms to,
/// `StrategyPath`): a plain `RankingStrategy`, a `TargetAwareStrategy`, a strategy
/// whose `reads` contain `.now`, and the conformance checker's reference mode rank at
/// every visit; a `PureRankingStrategy` reuses its last decision while nothing it
/// depends on changed; an `InstanceScoringStrategy` on a stack of at most
/// `ChangedInstances.capacity` instances also rescores the instances whose own inputs
/// changed (`changed`) and keeps the rest.
///
/// **The last decision** may be reused at a visit exactly when
/// - `isReusable`: no event since it ended it. Every event that changes what the
///   strategy's scores may depend on and cannot be followed instance by instance calls
///   `invalidate()`, the one way a decision ends: a candidate added or removed, a
///   donation the strategy reads (unless it rescores instances), a relevance change it
///   reads (idem), the clock stepping back, or the strategy's own state changing (its
///   `==`); and
/// - `applies(to:)`: the inputs in `reads` that arrive with the clock rather than as
///   events (the hour of day and of week, the local day, the shown instance) have the
///   values it was made for.
///
/// Between decisions, `changed` collects the instances to rescore and `retied` those
/// whose tie-break key a donation moved (their scores stand); both are emptied by each
/// decision, fresh (`record`) or updated (`update`).
///
/// - Complexity: every operation O(1).
@usableFromInline package struct DecisionCache: Sendable {
  // MARK: Policy

  /// The strategy's declared inputs, read once.
  @usableFromInline package let reads: VisitInputs
  /// True when the strategy's scores read the donation features.
  @usableFromInline package let readsDonations: Bool
  /// False when the strategy ranks at every visit (a plain `RankingStrategy`, a
  /// `TargetAwareStrategy`, `reads` containing `.now`, or `ranksAtEveryVisit`).
  @usableFromInline package let reusesDecisions: Bool
  /// The strategy rescores changed instances alone (`InstanceScoringStrategy`, at most
  /// `ChangedInstances.capacity` instances).
  @usableFromInline package let rescoresInstances: Bool
  /// The reference mode of `StrategyConformance`: the strategy's own `rank` at every
  /// visit, nothing derived from its refinement.
  @usableFromInline package let ranksAtEveryVisit: Bool
  /// The remembered order keys can be kept up to date through donations (decisions
  /// reused and at most `ChangedInstances.capacity` instances); past that size a
  /// donation ends the last decision.
  @usableFromInline package let tracksKeys: Bool

  // MARK: The last decision

  /// The last decision may be reused: no event ended it since (`invalidate()`). This
  /// and the fields below are written only by the methods of this type.
  @usableFromInline package var isReusable = false
  /// Its top instance (-1: no candidate) and number of candidates.
  @usableFromInline package var top = -1
  @usableFromInline package var candidates = 0
  /// The instance shown, the local hour of day and of week and the local day it was
  /// made for (`applies(to:)`).
  @usableFromInline package var shown: Int32 = -1
  @usableFromInline package var hourOfDay = 0
  @usableFromInline package var hourOfWeek = 0
  @usableFromInline package var dayIndex: Int64 = 0
  /// Instances whose own inputs (relevance, donations, being shown) changed since the
  /// last decision, for `rescoresInstances`: rescored at the next visit.
  @usableFromInline package var changed = ChangedInstances()
  /// Instances whose order key `promote` moved in place since the last decision (their
  /// scores stand): the next visit checks whether they overtook the top.
  @usableFromInline package var retied = ChangedInstances()
  /// Visits decided without calling `rank`: the last decision reused, or updated for the
  /// instances in `changed` and `retied`.
  @usableFromInline package var reusedCount = 0

  /// The policy for the strategy on `Path` with declared inputs `reads` on a stack of
  /// `instanceCount` instances; no decision yet.
  @inlinable package init<Path: EnginePath>(
    _: Path.Type, reads: VisitInputs, instanceCount: Int, ranksAtEveryVisit: Bool
  ) {
    self.reads = reads
    readsDonations = reads.contains(.donations)
    self.ranksAtEveryVisit = ranksAtEveryVisit
    reusesDecisions =
      !ranksAtEveryVisit && Path.kind != .everyVisit && !Path.seesTarget && !reads.contains(.now)
    rescoresInstances =
      reusesDecisions && Path.kind == .instanceScoring && instanceCount <= ChangedInstances.capacity
    tracksKeys = reusesDecisions && instanceCount <= ChangedInstances.capacity
  }

  /// Ends the last decision: the next visit ranks afresh. The one place that does.
  @inlinable @inline(__always) package mutating func invalidate() {
    isReusable = false
  }

  /// An input the strategy reads (`input`, `.relevance` or `.donations`) changed for
  /// instance `i` alone: rescored at the next visit when the strategy rescores
  /// instances, else the last decision ends.
  @inlinable @inline(__always) package mutating func inputChanged(_ input: VisitInputs, instance i: Int) {
    guard reads.contains(input) else { return }
    if rescoresInstances { changed.insert(i) } else { invalidate() }
  }

  /// Before reusing the last decision with `shown` on top: for a strategy that
  /// rescores instances, the instance shown then and the one shown now are rescored when
  /// they differ (their `.shown` input changed).
  @inlinable @inline(__always) package mutating func shownMayHaveChanged(to shown: Int32) {
    guard rescoresInstances && shown != self.shown else { return }
    if self.shown >= 0 { changed.insert(Int(self.shown)) }
    if shown >= 0 { changed.insert(Int(shown)) }
  }

  /// True when the last decision survives a donation: it is reusable, its order keys
  /// can follow the tie-break order (`tracksKeys`), and the strategy's scores ignore
  /// donations or it rescores the matched instances alone. Otherwise the donation
  /// calls `invalidate()`.
  @inlinable package var survivesDonation: Bool {
    @inline(__always) get { isReusable && tracksKeys && (!readsDonations || rescoresInstances) }
  }

  /// A donation matched instance `i` and the decision survives it (`survivesDonation`):
  /// the instance is rescored at the next visit when the strategy reads donations, else
  /// only its moved tie-break key is checked against the top (`retied`).
  @inlinable @inline(__always) package mutating func donationMatched(_ i: Int) {
    if readsDonations { changed.insert(i) } else { retied.insert(i) }
  }

  /// A fresh decision for `context` (`StackSession.decide`): remembered for reuse when
  /// `remember`, else only the pending changes are dropped.
  @inlinable @inline(__always) package mutating func record(
    top: Int, candidates: Int, context: StackContext, remember: Bool
  ) {
    isReusable = remember
    changed = ChangedInstances()
    retied = ChangedInstances()
    if remember {
      self.top = top
      self.candidates = candidates
      shown = context.shown
      hourOfDay = context.hourOfDay
      hourOfWeek = context.hourOfWeek
      dayIndex = context.dayIndex
    }
  }

  /// The last decision updated for `changed` and `retied` (`StackSession.updatedDecision`):
  /// its new top, made with `shown` on top; the pending changes are dropped.
  @inlinable @inline(__always) package mutating func update(top: Int, shown: Int32) {
    changed = ChangedInstances()
    retied = ChangedInstances()
    self.top = top
    self.shown = shown
  }

  /// True when the inputs in `reads` that come with the clock have, in `context`, the
  /// values the last decision was made for (the shown instance only for a strategy
  /// that does not rescore it through `changed`).
  @inlinable @inline(__always) package func applies(to context: StackContext) -> Bool {
    let inputs = reads
    return (!inputs.contains(.shown) || rescoresInstances || context.shown == shown)
      && (!inputs.contains(.hourOfDay) || context.hourOfDay == hourOfDay)
      && (!inputs.contains(.hourOfWeek) || context.hourOfWeek == hourOfWeek)
      && (!inputs.contains(.dayIndex) || context.dayIndex == dayIndex)
  }
}
