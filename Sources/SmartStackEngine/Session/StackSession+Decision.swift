import SmartStackBase
import SmartStackData

// The strategy's decision at a visit: candidates ordered by score then tie rank
// (`orderKey`), and the reuse of the last decision while nothing it depends on changed
// (`DecisionCache`).
extension StackSession {
  /// The strategy, when the last decision may still be reused and an event is about to
  /// reach it: `endDecisionIfStateChanged` then compares.
  @inline(__always)
  @inlinable package func stateBeforeEvent() -> Path? {
    decisions.reusesDecisions && decisions.isReusable ? _path : nil
  }

  /// Ends the last decision when the strategy's state changed since `before` (its `==`:
  /// what a pure or instance-scoring strategy's scores may depend on besides `reads`).
  @inline(__always)
  @inlinable mutating package func endDecisionIfStateChanged(_ before: Path?) {
    if let before, !_path.scoresAlike(before) { decisions.invalidate() }
  }

  /// The top candidate (-1 when there is none), the number of candidates, and the
  /// 1-based rank of the best-ranked target among the candidates (0 when no target is a
  /// candidate), for the scores in `ranking`. With `remember`, the decision is kept for
  /// reuse (`reusedDecision(targets:)`): each instance's order key, the top, the count
  /// and the inputs it was made for.
  ///
  /// Candidates are ordered by score (NaN as minus infinity), then by
  /// `slots.view.tieRank` (the `tieBreakPrecedes` order as one integer). One pass over the
  /// instances finds the top and counts the candidates that precede the best target, with
  /// selects instead of data-dependent branches (a 10-way argmax over near-random scores
  /// otherwise mispredicts several times per visit).
  ///
  /// - Complexity: O(n + t) for n instances and t targets.
  @inline(__always)
  @inlinable mutating package func decide(targets: UnsafeBufferPointer<Int32>, remember: Bool) -> (top: Int, candidates: Int, targetRank: Int) {
    let n = instances.count
    // Where the keys go: the slots' buffer when remembering, else nowhere (a stride-0
    // scratch slot).
    var scratch: UInt128 = 0
    let view = remember ? uniqueSlots() : slots.view
    let decision = withUnsafeMutablePointer(to: &scratch) { scratch in
      let keys = remember ? view.orderKeys : scratch
      let keyStride = remember ? 1 : 0
      return ranking.scores.withUnsafeBufferPointer { scores in
        _context.features._available.withUnsafeBufferPointer { available in
          let tie = view.tieRank
          // Two-argument `min`s: the four-argument one takes its fourth as a variadic
          // array, which the optimiser does not always remove (a heap allocation per
          // visit in `smart-rotate`'s specialisation).
          let count = min(min(n, scores.count), min(available.count, view.count))
          // `orderKey` packs (score, tie rank) so that a larger key comes first, and
          // everything below compares keys: no branches on the data. The best target is
          // the largest key among the candidate targets; with none, a key nothing
          // exceeds.
          var bestKey: UInt128 = 0
          for t in targets {
            let i = Int(t)
            guard i >= 0 && i < count && available[i] else { continue }
            bestKey = max(bestKey, Self.orderKey(scores[i], tie[i]))
          }
          let hasTarget = bestKey != 0
          if !hasTarget { bestKey = UInt128.max }
          // The top is the largest key; its low bits name its tie rank, hence the
          // instance (`tieOrder`), so the loop keeps no index.
          var topKey: UInt128 = 0
          var candidates = 0
          var preceding = 0
          guard let s = scores.baseAddress, let a = available.baseAddress else { return (-1, 0, 0) }
          var i = 0
          while i < count {
            let isCandidate = a[i]
            let key = isCandidate ? Self.orderKey(s[i], tie[i]) : 0
            keys[i &* keyStride] = key
            topKey = max(topKey, key)
            candidates &+= isCandidate ? 1 : 0
            preceding &+= key > bestKey ? 1 : 0
            i &+= 1
          }
          let top =
            topKey == 0 ? -1 : Int(view.tieOrder[Int(UInt32.max &- UInt32(truncatingIfNeeded: topKey))])
          return (top, candidates, hasTarget ? preceding &+ 1 : 0)
        }
      }
    }
    decisions.record(top: decision.0, candidates: decision.1, context: _context, remember: remember)
    return decision
  }

  /// `decide(targets:remember:)`'s result for the remembered decision: the same top and
  /// candidates, and the best target's rank from the remembered order keys.
  ///
  /// - Complexity: O(t) for t targets, plus O(n) when one of them is a candidate.
  @inline(__always)
  @inlinable package func reusedDecision(targets: UnsafeBufferPointer<Int32>) -> (top: Int, candidates: Int, targetRank: Int) {
    let view = slots.view
    let keys = view.orderKeys
    let count = view.count
    var bestKey: UInt128 = 0
    for t in targets {
      let i = Int(t)
      guard i >= 0 && i < count else { continue }
      bestKey = max(bestKey, keys[i])
    }
    guard bestKey != 0 else { return (decisions.top, decisions.candidates, 0) }
    var preceding = 0
    var i = 0
    while i < count {
      preceding &+= keys[i] > bestKey ? 1 : 0
      i &+= 1
    }
    return (decisions.top, decisions.candidates, preceding &+ 1)
  }

  /// `decide(targets:remember: true)`'s result when only the instances in `changed`
  /// have new scores since the remembered decision, and those in `retied` keys that
  /// `promote` moved (candidates as then; every other key unchanged or one tie place
  /// back, which keeps their order): the changed keys are recomputed, the top is the
  /// largest of the old top's key and the changed and retied keys (all keys when the
  /// old top's own score fell), and the target's rank is counted over the keys as in
  /// `reusedDecision(targets:)`.
  ///
  /// - Complexity: O(c) for c changed instances, plus O(n) when the top's key fell or a
  ///   target is a candidate.
  @inline(__always)
  @inlinable mutating package func updatedDecision(targets: UnsafeBufferPointer<Int32>) -> (top: Int, candidates: Int, targetRank: Int) {
    let view = uniqueSlots()
    let keys = view.orderKeys
    let count = view.count
    // First every changed key (a retied instance may be among them: its moved key still
    // holds its old score), then the largest of the top's and the changed and retied
    // keys.
    var topFell = false
    ranking.scores.withUnsafeBufferPointer { scores in
      _context.features._available.withUnsafeBufferPointer { available in
        for i in decisions.changed where i < count && i < scores.count && i < available.count {
          let key = available[i] ? Self.orderKey(scores[i], view.tieRank[i]) : 0
          if i == decisions.top && key < keys[i] { topFell = true }
          keys[i] = key
        }
      }
    }
    var topKey: UInt128 = 0
    if topFell {
      for i in 0..<count { topKey = max(topKey, keys[i]) }
    } else {
      if decisions.top >= 0 { topKey = keys[decisions.top] }
      for i in ChangedInstances(bits: decisions.changed.bits | decisions.retied.bits) where i < count { topKey = max(topKey, keys[i]) }
    }
    let top = topKey == 0 ? -1 : Int(view.tieOrder[Int(UInt32.max &- UInt32(truncatingIfNeeded: topKey))])
    decisions.update(top: top, shown: _context.shown)
    let (_, candidates, targetRank) = reusedDecision(targets: targets)
    return (top, candidates, targetRank)
  }

  /// `(score, tieRank)` as one unsigned integer that orders like the engine: a higher
  /// score first (NaN as minus infinity, as in `StackFeatures.precedes`), then a smaller tie rank. The score
  /// becomes the high 64 bits by the usual order-preserving map of IEEE doubles (NaN
  /// first replaced by minus infinity and `-0.0` by `+0.0`, which compares equal to it);
  /// the low bits hold
  /// `UInt32.max - tieRank`. Never 0 for a tie rank below `UInt32.max`, so 0 can mean
  /// "nothing yet".
  @inline(__always)
  @inlinable static package func orderKey(_ score: Double, _ tieRank: Int32) -> UInt128 {
    var bits = score.bitPattern
    // NaN sorts as minus infinity, -0.0 as +0.0 (selects, not branches).
    bits = bits & ~(1 << 63) > 0x7FF0_0000_0000_0000 ? 0xFFF0_0000_0000_0000 : bits
    bits = bits == 1 << 63 ? 0 : bits
    // Negative: flip every bit (larger magnitude = smaller); positive: set the sign bit.
    let negative = UInt64(bitPattern: Int64(bitPattern: bits) >> 63)
    let ordered = bits ^ (negative | 1 << 63)
    return UInt128(ordered) << 64 | UInt128(UInt32.max &- UInt32(bitPattern: tieRank))
  }

  /// Every candidate's score to 0, every other to minus infinity.
  @inline(__always)
  @inlinable mutating package func resetScores() {
    Self.resetScores(&ranking.scores, available: _context.features._available)
  }

  /// `scores[i] = available[i] ? 0 : -infinity` over buffers: one uniqueness check for
  /// the whole array instead of one per element.
  @inline(__always)
  @inlinable static package func resetScores(_ scores: inout [Double], available: [Bool]) {
    scores.withUnsafeMutableBufferPointer { s in
      available.withUnsafeBufferPointer { a in
        for i in 0..<min(s.count, a.count) { s[i] = a[i] ? 0 : -Double.infinity }
      }
    }
  }
}
