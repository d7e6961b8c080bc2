import SmartStackBase
import SmartStackData

// A Home Screen visit: the strategy's decision (fresh or reused, `StackSession+Decision`),
// the stack's own rules applied to it (`StackRules`), the relevance situation, and the
// outcome the observer receives.
extension StackSession {
  /// A Home Screen visit under the stack's own rules (`StackRuleState`: a swipe pin,
  /// Smart Rotate off, the rotation limit, then suppression), which the session keeps:
  /// the strategy ranks, the rules decide what is shown, and the outcome goes to the
  /// observer.
  @discardableResult
  @inline(__always)
  @inlinable package mutating func visit(
    at time: Int64, hasTarget: Bool, targetBuffer: UnsafeBufferPointer<Int32>,
    targets: @autoclosure () -> ArraySlice<Int32>
  ) -> VisitOutcome {
    let policy = rules.policy(
      at: time, limitExhausted: rules.settings.rotationLimit.isExhausted(_context._rotations, now: time))
    return visit(at: time, hasTarget: hasTarget, targetBuffer: targetBuffer, targets: targets(), policy: policy)
  }

  /// `visit(at:hasTarget:targetBuffer:targets:)` with the targets as a slice.
  @discardableResult
  @inline(__always)
  @inlinable package mutating func visit(at time: Int64, hasTarget: Bool, targets: ArraySlice<Int32>) -> VisitOutcome {
    targets.withUnsafeBufferPointer { buffer in
      visit(at: time, hasTarget: hasTarget, targetBuffer: buffer, targets: targets)
    }
  }

  /// A Home Screen visit with an explicit `policy` (for tests: the session's own rule
  /// state is not read): the strategy ranks, the top candidate is shown, the outcome
  /// goes to the observer, and a rotation is recorded (`StackContext.rotations`). `hasTarget`/`targets` describe what the person
  /// wanted (see `VisitOutcome`); only a `TargetAwareStrategy` and an observer that reads
  /// them see `targets`.
  @discardableResult
  @inline(__always)
  @inlinable package mutating func visit(
    at time: Int64, hasTarget: Bool, targets: ArraySlice<Int32>, policy: VisitPolicy
  ) -> VisitOutcome {
    targets.withUnsafeBufferPointer { buffer in
      visit(at: time, hasTarget: hasTarget, targetBuffer: buffer, targets: targets, policy: policy)
    }
  }

  /// `visit(at:hasTarget:targets:policy:)` with the targets read from `targetBuffer`
  /// (for the target's rank), and given as a slice, `targets` (the same instances), only
  /// to a `TargetAwareStrategy` and to an observer that calls it: replay's slice of the
  /// plan's arrays costs a reference-count increment and decrement, so it is not built
  /// at a visit where neither reads it. The outcome holds no reference.
  @discardableResult
  @inline(__always)
  @inlinable mutating package func visit(
    at time: Int64, hasTarget: Bool, targetBuffer: UnsafeBufferPointer<Int32>,
    targets: @autoclosure () -> ArraySlice<Int32>, policy: VisitPolicy
  ) -> VisitOutcome {
    let decision = decideVisit(at: time, targetBuffer: targetBuffer, targets: targets(), policy: policy)
    var outcome = self.outcome(decision, at: time, hasTarget: hasTarget)
    if outcome.rotated { _context._rotations.record(time) }
    if shownProbabilityReader != nil { tellShownProbabilities(&outcome) }
    _observer.observe(outcome, targets: targets(), scores: ranking.scores, features: _context.features)
    return outcome
  }

  /// Sets `outcome.shownProbability` and tells the observer the visit's probabilities
  /// (`shownChoice.last`), when it reads them (`shownProbabilityReader`). Out of line, as
  /// `prepare` and `finish` are: a run whose observer does not read them keeps only the
  /// three checks of the reader in its visit.
  @inline(never)
  @inlinable mutating package func tellShownProbabilities(_ outcome: inout VisitOutcome) {
    guard let reader = shownProbabilityReader else { return }
    outcome.shownProbability = shownChoice.last.probability(of: outcome.shown)
    reader.tell(&_observer, shownChoice.last)
  }

  /// What `decideVisit` decided at a visit: the instance shown (-1: none) and the one
  /// shown before, the best target's rank as presented (`VisitOutcome.targetRank`), the
  /// number of candidates, the rule's name and which rule it is (`VisitOutcome.rule`,
  /// `VisitOutcome.decidedBy`), and the relevance situation (`relevanceAtVisit`). Every
  /// element is trivial: holding it costs no reference counting.
  @usableFromInline package typealias VisitDecision = (
    shown: Int32, previous: Int32, targetRank: Int, candidates: Int, rule: StaticString, decidedBy: VisitRule,
    critical: Bool, honoured: Bool
  )

  /// The outcome of `decision`, made at `time` (the session's clock and relevance as
  /// `decideVisit` left them), for a visit with `hasTarget`.
  @inline(__always)
  @inlinable package func outcome(_ decision: VisitDecision, at time: Int64, hasTarget: Bool) -> VisitOutcome {
    let shown = decision.shown
    let previous = decision.previous
    return VisitOutcome(
      person: person, time: time, dayIndex: _context.dayIndex, hourOfDay: _context.hourOfDay,
      shown: shown, previous: previous, rotated: previous >= 0 && shown != previous,
      hasTarget: hasTarget, targetRank: decision.targetRank,
      candidateCount: decision.candidates,
      shownState: shown >= 0 ? _context.features._relevance[Int(shown)] : .none,
      relevanceCritical: decision.critical, relevanceHonoured: decision.honoured, rule: decision.rule,
      decidedBy: decision.decidedBy)
  }

  /// Everything of a visit but the observer's call: the decision (fresh or reused), the
  /// stack's rules, the relevance situation and the shown instance, with the session
  /// updated for them. `targets` reaches only a `TargetAwareStrategy` (evaluated only for
  /// one).
  @inline(__always)
  @inlinable mutating package func decideVisit(
    at time: Int64, targetBuffer: UnsafeBufferPointer<Int32>, targets: @autoclosure () -> ArraySlice<Int32>,
    policy: VisitPolicy
  ) -> VisitDecision {
    advanceClock(to: time)
    if hasRelevance && time >= nextRelevanceRefresh { refreshDueRelevance() }
    // The strategy's stated probabilities, in the state its `rank` is about to use.
    if shownProbabilityReader != nil { shownChoice.prepare(_path.strategy, _context) }
    let rankedTop: Int
    let candidates: Int
    let rankedTargetRank: Int
    if decisions.isReusable, decisions.applies(to: _context) {
      // Nothing the strategy's scores depend on changed but the instances in `changed`
      // (rescored) and `retied` (keys moved by a donation): the last decision stands
      // (`ranking` still holds its scores and rule), or is updated for those.
      decisions.shownMayHaveChanged(to: _context.shown)
      if !decisions.changed.isEmpty { _path.rescore(decisions.changed, _context, into: &ranking) }
      if !decisions.changed.isEmpty || !decisions.retied.isEmpty {
        (rankedTop, candidates, rankedTargetRank) = updatedDecision(targets: targetBuffer)
        nameDecision(top: rankedTop)
      } else {
        (rankedTop, candidates, rankedTargetRank) = reusedDecision(targets: targetBuffer)
      }
      decisions.reusedCount &+= 1
    } else {
      resetScores()
      ranking.rule = "score"
      if Path.seesTarget { _context.target = targets() }
      if decisions.ranksAtEveryVisit {
        _path.strategy.rank(_context, into: &ranking)
      } else {
        _path.score(_context, into: &ranking)
      }
      if Path.seesTarget { _context.target = [] }
      (rankedTop, candidates, rankedTargetRank) = decide(targets: targetBuffer, remember: decisions.reusesDecisions)
      nameDecision(top: rankedTop)
    }
    // The stack's own rules, applied to the strategy's order (`StackRules`); the
    // strategy's scores and rule stay as they are, for the next visit's reuse.
    var shownIndex = rankedTop
    var decidedBy = VisitRule.strategy
    var presentedTargetRank = rankedTargetRank
    if !Path.seesTarget
      && StackRules.mayBind(strategyTop: rankedTop, policy: policy, current: Int(_context.shown), features: _context.features)
    {
      (shownIndex, decidedBy, presentedTargetRank) = applyStackRules(
        strategyTop: rankedTop, targetRank: rankedTargetRank, policy: policy, targets: targetBuffer)
    }
    let top = shownIndex
    let targetRank = presentedTargetRank
    let rule = decidedBy == .strategy ? ranking.rule : decidedBy.name
    if shownProbabilityReader != nil {
      shownChoice.finish(shown: Int32(top), instanceCount: _context.instanceCount, decidedBy: decidedBy)
    }

    let (critical, honoured) = relevanceAtVisit(top: top)

    let previous = _context.shown
    let shown = Int32(top)
    if shown != previous {
      _context.shown = shown
      _context.shownSince = time
    }
    return (shown, previous, targetRank, candidates, rule, decidedBy, critical, honoured)
  }

  /// Sets `ranking.rule` for an instance-scoring strategy, which names a decision after
  /// its top (`InstanceScoringStrategy.rule(top:)`); other strategies named it in `rank`.
  /// A reused decision keeps its rule: its top and the top's inputs are unchanged.
  @inline(__always)
  @inlinable mutating package func nameDecision(top: Int) {
    guard !decisions.ranksAtEveryVisit else { return }
    if let rule = _path.rule(top: top, _context) { ranking.rule = rule }
  }

  /// The shown instance, the rule that decided it (`.strategy` when no stack rule bound)
  /// and the target's rank once the stack's rules are applied to the strategy's decision
  /// (`StackRules`), at a visit where they may bind. `targetRank` is the best target's
  /// rank in the strategy's order.
  ///
  /// Candidate `i`'s key in the strategy's order is its remembered order key when the
  /// session remembers decisions, else `orderKey` of its current score and tie rank, read
  /// through buffers: a closure over the session itself would copy it.
  ///
  /// The target's rank as presented follows from its rank in the strategy's order in
  /// O(t) (`StackRules.presentedTargetRank`), except in the conformance checker's
  /// reference mode (`DecisionCache.ranksAtEveryVisit`), which counts it over every
  /// candidate (`StackRules.targetRank`), so the checker compares the two.
  ///
  /// `mutating` although it changes nothing: the session then goes in by address. A
  /// non-mutating call out of line on the driver's `inout` session copied all of it
  /// (816 bytes, `memcpy`) at every visit where the rules may bind.
  ///
  /// - Complexity: O(1) when no rule binds; O(n + t) for n instances and t targets when
  ///   suppression binds (the allowed candidate is looked for over every instance).
  @inline(never)
  @inlinable mutating package func applyStackRules(
    strategyTop: Int, targetRank: Int, policy: VisitPolicy, targets: UnsafeBufferPointer<Int32>
  ) -> (shown: Int, rule: VisitRule, targetRank: Int) {
    let view = slots.view
    let current = Int(_context.shown)
    let features = _context.features
    // With decisions remembered, this visit's decision left every instance's key in the
    // slots (`decide`, `updatedDecision`): in the same order as `orderKey` of its score
    // and tie rank, which is all the rules compare.
    let remembered = decisions.reusesDecisions
    let counts = decisions.ranksAtEveryVisit
    return ranking.scores.withUnsafeBufferPointer { scores in
      let key = { (i: Int) -> UInt128 in remembered ? view.orderKeys[i] : Self.orderKey(scores[i], view.tieRank[i]) }
      let (constrained, constraintRule) = StackRules.shown(
        strategyTop: strategyTop, policy: policy, current: current, features: features, key: key)
      guard constraintRule != .strategy else { return (strategyTop, .strategy, targetRank) }
      guard constrained != strategyTop else { return (strategyTop, constraintRule, targetRank) }
      let rank =
        counts
        ? StackRules.targetRank(shown: constrained, targets: targets, features: features, key: key)
        : StackRules.presentedTargetRank(
          strategyRank: targetRank, shown: constrained, targets: targets, features: features, key: key)
      return (constrained, constraintRule, rank)
    }
  }
}
