import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `smart-rotate`: the toolkit's best guess at Apple's Smart Rotate. A blend of
/// behaviour and normalised relevance, with hysteresis, a minimum dwell and a rotation
/// rate limit (reference rules 4, 7, 20 and open questions Q2, Q4, Q5, Q6). Every weight
/// is a parameter.
///
/// **Utility.** For each candidate `i` at a visit with local hour of week `w` and hour
/// of day `h`:
/// - behaviour `raw(i) = HW(i,w) + day-weight · HD(i,h) / 7 + all-weight · N(i) / 168`,
///   where HW, HD and N count the person's earlier matched donations in that hour of
///   week, that hour of day, and overall; `b(i) = raw(i) / Σ_j raw(j)` over candidates
///   (all 0 when nothing was donated);
/// - relevance `r(i)` = the normalised percentile when `i` is `active`, else 0;
/// - `u(i) = w-behaviour · b(i) + w-relevance · r(i)`.
///
/// Suppressed candidates (score <= 0 inside a window) are never chosen.
///
/// **Choice.** With `temperature = 0` the best candidate is the one with the highest
/// utility (engine tie-break); with `temperature > 0` it is drawn from the softmax
/// `exp(u(i) / temperature)` over non-suppressed candidates, in instance order, from the
/// strategy's seeded stream.
///
/// **Rotation.** Let `c` be the instance shown before the visit. The stack moves to the
/// best candidate `x != c` only when one of these holds: nothing is shown yet, `c` is no
/// longer a candidate, or `c` is suppressed; or all of: `u(x) - u(c) > margin`, `c` has
/// been on top for at least `min-dwell-minutes`, fewer than `max-per-hour` rotations in
/// the last 60 minutes and fewer than `max-per-day` in the last 24 hours (limits of 0
/// mean unlimited; `developer-mode = 1` lifts the dwell and both limits, like WidgetKit
/// Developer Mode). Otherwise `c` stays. The chosen instance gets score +infinity; the
/// others keep their utility, so the rest of the ranking (for MRR) is by utility.
///
/// The stack's own rules (a swipe pin, Smart Rotate off, the stack's rotation limit,
/// suppression) are applied by the engine after this ranking (`StackRules`) and win over
/// the +infinity. The rotation counts above are the stack's own (`StackContext.rotations`,
/// the engine's record that the stack's rotation limit reads too): every visit at which
/// the shown widget changed, whoever chose it; a choice the stack's rules overrode is
/// not a rotation, and neither is a manual swipe.
public struct SmartRotateStrategy: RankingStrategy {
  public static let info = StrategyInfo(
    name: "smart-rotate",
    summary: "behaviour + normalised relevance blend with hysteresis, dwell and a rotation rate limit",
    parameters: [
      StrategyParameterSpec("w-behaviour", default: 1, range: 0...1000, help: "weight of the behaviour share b(i)"),
      StrategyParameterSpec("w-relevance", default: 1, range: 0...1000, help: "weight of the relevance percentile r(i)"),
      StrategyParameterSpec("day-weight", default: 1, range: 0...1000, help: "weight of hour-of-day counts (per 7 days) in raw(i)"),
      StrategyParameterSpec("all-weight", default: 1, range: 0...1000, help: "weight of all-time counts (per 168 hours) in raw(i)"),
      StrategyParameterSpec("margin", default: 0.05, range: 0...1000, help: "utility gain needed to rotate away from the current top"),
      StrategyParameterSpec("min-dwell-minutes", default: 10, range: 0...10_080, help: "minimum time on top before a rotation"),
      StrategyParameterSpec("max-per-hour", default: 4, range: 0...10_000, integer: true, help: "rotations allowed per 60 minutes; 0 = unlimited"),
      StrategyParameterSpec("max-per-day", default: 24, range: 0...100_000, integer: true, help: "rotations allowed per 24 hours; 0 = unlimited"),
      StrategyParameterSpec("temperature", default: 0, range: 0...1000, help: "softmax temperature; 0 = always the best"),
      StrategyParameterSpec("developer-mode", default: 0, range: 0...1, integer: true, help: "1 = no dwell and no rate limit"),
    ])

  @usableFromInline let wBehaviour, wRelevance, dayWeight, allWeight, margin, temperature: Double
  @usableFromInline let minDwell: Int64
  @usableFromInline let maxPerHour, maxPerDay: Int
  @usableFromInline let developerMode: Bool
  @usableFromInline var rng = Xoshiro256StarStar(seed: 0)
  @usableFromInline var utility: [Double] = []

  public init(parameters p: StrategyParameters) {
    wBehaviour = p["w-behaviour"]
    wRelevance = p["w-relevance"]
    dayWeight = p["day-weight"]
    allWeight = p["all-weight"]
    margin = p["margin"]
    temperature = p["temperature"]
    minDwell = Int64(p["min-dwell-minutes"] * 60_000)
    maxPerHour = Int(p["max-per-hour"])
    maxPerDay = Int(p["max-per-day"])
    developerMode = p["developer-mode"] == 1
  }

  public mutating func begin(_ setup: StrategySetup) {
    rng = Xoshiro256StarStar(seed: setup.seed)
    utility = Array(repeating: 0, count: setup.instanceCount)
  }

  @inline(__always)
  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    let n = context.instanceCount
    let w = context.hourOfWeek
    let h = context.hourOfDay
    // Behaviour share, then utility and scores: over buffers, so the loops do not check
    // `utility` and `ranking.scores` for uniqueness at every write.
    var best = -1
    utility.withUnsafeMutableBufferPointer { utility in
      ranking.scores.withUnsafeMutableBufferPointer { scores in
        let n = min(n, utility.count, scores.count)
        var total = 0.0
        for i in 0..<n where context.isCandidate(i) {
          let raw =
            Double(f.hourOfWeekCount[i * 168 + w]) + dayWeight * Double(f.hourOfDayCount[i * 24 + h]) / 7
            + allWeight * Double(f.donationCount[i]) / 168
          utility[i] = raw
          total += raw
        }
        for i in 0..<n where context.isCandidate(i) {
          var r = 0.0
          if case .active = f.relevance[i], !f.percentile[i].isNaN { r = f.percentile[i] }
          utility[i] = wBehaviour * (total > 0 ? utility[i] / total : 0) + wRelevance * r
          if case .suppressed = f.relevance[i] {
            scores[i] = -Double.infinity
            continue
          }
          scores[i] = utility[i]
          if best < 0 || f.precedes(i, score: scores[i], best, score: scores[best]) { best = i }
        }
      }
    }
    if temperature > 0, best >= 0 { best = sample(context) }

    let c = Int(context.shown)
    let now = context.now
    let currentUsable: Bool = {
      guard c >= 0, context.isCandidate(c) else { return false }
      if case .suppressed = f.relevance[c] { return false }
      return true
    }()
    var choice = best
    if best >= 0 && best != c && currentUsable {
      let gain = utility[best] - utility[c]
      var allowed = gain > margin
      if allowed && !developerMode {
        if now - context.shownSince < minDwell {
          allowed = false
          ranking.rule = "minimum dwell"
        } else if maxPerHour > 0, context.rotations.count(after: now - 3_600_000) >= maxPerHour {
          allowed = false
          ranking.rule = "hourly rotation limit"
        } else if maxPerDay > 0, context.rotations.count(after: now - 86_400_000) >= maxPerDay {
          allowed = false
          ranking.rule = "daily rotation limit"
        }
      } else if !allowed {
        ranking.rule = "gain below margin: stay"
      }
      if allowed {
        ranking.rule = "rotate to best utility"
      } else {
        choice = c
      }
    } else if best == c {
      ranking.rule = "current top is best"
    } else {
      ranking.rule = "initial or forced choice"
    }
    if choice >= 0 {
      ranking.scores[choice] = .infinity
    } else if c >= 0 && context.isCandidate(c) {
      // Only suppressed candidates: stay where the stack is.
      ranking.scores[c] = .infinity
      ranking.rule = "all suppressed: stay"
    }
  }

  /// Draws a candidate from the softmax of utilities (non-suppressed candidates).
  @inlinable mutating func sample(_ context: StackContext) -> Int {
    let n = context.instanceCount
    var maxU = -Double.infinity
    for i in 0..<n where context.isCandidate(i) && !isSuppressed(context, i) {
      maxU = max(maxU, utility[i])
    }
    var weights = Array(repeating: 0.0, count: n)
    for i in 0..<n where context.isCandidate(i) && !isSuppressed(context, i) {
      weights[i] = exp((utility[i] - maxU) / temperature)
    }
    return RandomShuffle.weightedIndex(weights, using: &rng) ?? -1
  }

  @inlinable func isSuppressed(_ context: StackContext, _ i: Int) -> Bool {
    if case .suppressed = context.features.relevance[i] { return true }
    return false
  }
}
