import SmartStackBase
import SmartStackData

/// What the stack allows at one visit, decided by the driver from the stack's settings
/// and the person's swipes, before the strategy ranks.
public enum VisitPolicy: Sendable {
  /// Smart Rotate is on and nothing is pinned: the strategy's ranking decides, except
  /// that a suppressed instance is never rotated to (see `StackRules`).
  case rank
  /// This instance stays on top (a manual swipe pinned it), if it is a candidate.
  case forced(Int32)
  /// The instance already on top stays, if it is a candidate: Smart Rotate is off, or a
  /// stack rotation limit is exhausted. `reason` names why (`.smartRotateOff` or
  /// `.rotationLimit`), for explanations.
  case noRotation(NoRotation)

  /// Why nothing rotates at a `.noRotation` visit.
  public enum NoRotation: UInt8, Sendable, Hashable {
    case smartRotateOff, rotationLimit

    /// The stack rule that keeps the instance on top.
    @inlinable public var rule: VisitRule { self == .smartRotateOff ? .smartRotateOff : .rotationLimit }
  }
}

/// Which rule decided what a visit showed: the strategy's ranking, or one of the stack's
/// own rules (`StackRules`). The engine sets it where it applies the rules
/// (`VisitOutcome.decidedBy`); whoever needs to know whether a rule fixed the shown
/// instance reads it rather than the rule's text.
public enum VisitRule: UInt8, Sendable, Hashable, CaseIterable {
  /// The strategy's first candidate was shown (no stack rule bound, or the strategy sees
  /// the target and is exempt from them); the strategy's own rule names the decision.
  case strategy
  /// A manual swipe pinned the shown instance (`VisitPolicy.forced`).
  case pin
  /// Smart Rotate is off: the instance on top stayed.
  case smartRotateOff
  /// The stack's rotation limit is exhausted: the instance on top stayed.
  case rotationLimit
  /// The strategy's first candidate was suppressed: the first allowed one was shown.
  case suppressed
  /// On the watch, a card the person pinned is on top (`WatchCardObserver`).
  case pinnedCard

  /// The name `VisitOutcome.rule` gives a stack rule (traces and explanations):
  /// `manual swipe pin`, `smart rotate off`, `stack rotation limit`,
  /// `suppressed: not rotated to`; `strategy` for `.strategy`, whose visits are named by
  /// the strategy's own rule instead.
  @inlinable public var name: StaticString {
    switch self {
    case .strategy: return "strategy"
    case .pin: return "manual swipe pin"
    case .smartRotateOff: return "smart rotate off"
    case .rotationLimit: return "stack rotation limit"
    case .suppressed: return "suppressed: not rotated to"
    case .pinnedCard: return "pinned card"
    }
  }

  /// True for a rule that fixed the shown instance whatever the strategy ranked (a pin,
  /// Smart Rotate off, the rotation limit): it was shown with probability 1.
  @inlinable public var isForcing: Bool {
    self == .pin || self == .smartRotateOff || self == .rotationLimit || self == .pinnedCard
  }
}

/// The stack's own rules, applied by the engine to the strategy's ranking after the
/// strategy ranks: rules are constraints, not scores (README, "Semantics": stack rules).
/// No score can outbid them, `+infinity` included.
///
/// Given the strategy's order of the candidates (score, then tie-break) and the instance
/// `c` on top before the visit, the instance shown is:
/// 1. `.forced(p)` with `p` a candidate: `p` (rule `.pin`, even when the strategy ranked
///    `p` first too: the pin decided);
/// 2. `.noRotation(reason)` with `c` a candidate: `c` (rule `reason.rule`, likewise);
/// 3. otherwise, when something is on top (`c >= 0`), the first instance in the
///    strategy's order that is *allowed*: a candidate that is not `suppressed` (a window
///    with score `<= 0`, reference rule 3), or `c` itself (staying is never a rotation).
///    When the strategy's first candidate is not allowed, the rule is `.suppressed`. When no candidate is allowed (`c` left the stack and
///    every candidate is suppressed) the strategy's first candidate is shown: the stack
///    must show something. At the first visit (`c == -1`) nothing rotates, and the
///    strategy's first candidate is shown whatever its state.
///
/// The rank of the visit's target (for MRR and hits) is taken in the order actually
/// presented: the shown instance first, then the other candidates in the strategy's
/// order.
///
/// Strategies that see the target (`TargetAwareStrategy`, the `oracle`) are the
/// upper bound of any ranking and are exempt from every rule.
public enum StackRules {
  /// False when `shown(strategyTop:policy:current:features:key:)` certainly leaves the
  /// strategy's first candidate `top` shown with no rule: no pin, no "no rotation", and
  /// `top` is not a suppressed instance other than `c`.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  @inlinable static package func mayBind(strategyTop top: Int, policy: VisitPolicy, current c: Int, features: StackFeatures) -> Bool {
    if case .rank = policy {
      return top >= 0 && c >= 0 && top != c && features._relevanceKind[top] == .suppressed
    }
    return true
  }

  /// The shown instance and the rule that put it there (`.strategy` when no stack rule
  /// applied), for a strategy whose first candidate is `top` (-1 when there is no
  /// candidate).
  ///
  /// `key(i)` is candidate `i`'s order key in the strategy's order (larger first, never
  /// 0 for a candidate); it is called only when suppression binds, for every instance
  /// `i` in `0..<features.instanceCount` (its value is ignored for a non-candidate).
  ///
  /// - Complexity: O(1), plus O(n) for n instances when the strategy's first candidate is
  ///   suppressed and is not `c`.
  @inline(__always)
  @inlinable static package func shown(
    strategyTop top: Int, policy: VisitPolicy, current c: Int, features: StackFeatures,
    key: (Int) -> UInt128
  ) -> (top: Int, rule: VisitRule) {
    switch policy {
    case .forced(let pinned):
      let p = Int(pinned)
      if p >= 0 && p < features.instanceCount && features._available[p] {
        return (p, .pin)
      }
    case .noRotation(let reason):
      if c >= 0 && c < features.instanceCount && features._available[c] {
        return (c, reason.rule)
      }
    case .rank:
      break
    }
    guard top >= 0, c >= 0, top != c, features._relevanceKind[top] == .suppressed else { return (top, .strategy) }
    // Selects, not branches: which candidates are suppressed follows no pattern.
    var best = -1
    var bestKey: UInt128 = 0
    features._available.withUnsafeBufferPointer { available in
      features._relevanceKind.withUnsafeBufferPointer { kind in
        for i in 0..<min(features.instanceCount, min(available.count, kind.count)) {
          let allowed = available[i] && (i == c || kind[i] != .suppressed)
          let k = allowed ? key(i) : 0
          best = k > bestKey ? i : best
          bestKey = max(bestKey, k)
        }
      }
    }
    return best >= 0 ? (best, .suppressed) : (top, .strategy)
  }

  /// The 1-based rank of the best-ranked target when `shown` is presented first and the
  /// other candidates follow in the strategy's order (`key`, larger first); 0 when no
  /// target is a candidate. Counted over every candidate; `presentedTargetRank` derives
  /// the same from the strategy's own rank of the target.
  ///
  /// - Complexity: O(t + n) for t targets and n instances.
  @inlinable static package func targetRank(
    shown: Int, targets: UnsafeBufferPointer<Int32>, features: StackFeatures, key: (Int) -> UInt128
  ) -> Int {
    let n = features.instanceCount
    guard let bestKey = bestTargetKey(shown: shown, targets: targets, features: features, key: key) else { return 1 }
    guard bestKey != 0 else { return 0 }
    var preceding = 0
    for j in 0..<n where features._available[j] && j != shown && key(j) > bestKey { preceding += 1 }
    return preceding + 2
  }

  /// `targetRank(shown:targets:features:key:)` from `strategyRank`, the best target's
  /// rank in the strategy's order (`key`; 0 when no target is a candidate): presenting
  /// the candidate `shown` first moves the best target one place back, unless it is
  /// `shown` itself (rank 1) or `shown` preceded it already.
  ///
  /// - Complexity: O(t) for t targets.
  @inline(__always)
  @inlinable static package func presentedTargetRank(
    strategyRank: Int, shown: Int, targets: UnsafeBufferPointer<Int32>, features: StackFeatures,
    key: (Int) -> UInt128
  ) -> Int {
    guard strategyRank > 0 else { return 0 }
    guard let bestKey = bestTargetKey(shown: shown, targets: targets, features: features, key: key) else { return 1 }
    return key(shown) > bestKey ? strategyRank : strategyRank + 1
  }

  /// The largest key (`key`) among the candidate targets, 0 when no target is a
  /// candidate, or nil when `shown` is one of them.
  ///
  /// - Complexity: O(t) for t targets.
  @inline(__always)
  @inlinable static package func bestTargetKey(
    shown: Int, targets: UnsafeBufferPointer<Int32>, features: StackFeatures, key: (Int) -> UInt128
  ) -> UInt128? {
    let n = features.instanceCount
    var bestKey: UInt128 = 0
    for t in targets {
      let i = Int(t)
      guard i >= 0 && i < n && features._available[i] else { continue }
      if i == shown { return nil }
      bestKey = max(bestKey, key(i))
    }
    return bestKey
  }
}
