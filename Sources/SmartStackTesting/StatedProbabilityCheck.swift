import Foundation
import SmartStackKit

/// Checks that a stochastic strategy draws what it states (`StochasticRankingStrategy.
/// choiceProbabilities`): the probabilities an exposure log records and every weighted
/// estimator divides by. A wrong statement fails this test instead of silently biasing
/// every estimate.
///
/// ```swift
/// @Test func myStrategyDrawsWhatItStates() {
///   let report = StatedProbabilityCheck.check(MyStochasticStrategy(...))
///   #expect(report.passed, "\(report)")
/// }
/// ```
///
/// The strategy runs over generated worlds (`GeneratedWorld`, as `StrategyConformance`);
/// at each visit the probabilities it states just before ranking, p_k, and the candidate
/// its ranking puts first, c_k, are recorded. Under a correct statement, for every
/// candidate index i, `O_i − E_i = Σ_k (1[c_k = i] − p_k(i))` is a martingale with
/// variance `V_i = Σ_k p_k(i)(1 − p_k(i))`, and likewise for the stated probabilities
/// grouped in five bins ([0, 0.2), …, [0.8, 1]: does a candidate stated at 0.3 come first
/// 30 % of the time?). Each `z = (O − E)/√V` is approximately standard normal; the test
/// fails when any |z| exceeds the two-sided Bonferroni bound for the `m` tests at the
/// false-alarm rate `falseAlarm` (default 0.001: a correct strategy fails at most one
/// run in a thousand, by the normal approximation), or when a candidate stated at
/// probability 0 comes first.
public enum StatedProbabilityCheck {
  public struct Report: Sendable, CustomStringConvertible {
    public var strategy: String
    /// Visits ranked.
    public var visits = 0
    /// The largest |z| and the test it came from.
    public var worstZ = 0.0
    public var worstTest = ""
    /// The bound |z| must stay within.
    public var bound = 0.0
    /// Set when a candidate stated at probability 0 came first.
    public var impossibleChoice: String? = nil
    public var passed: Bool { impossibleChoice == nil && worstZ <= bound }

    public var description: String {
      if let impossibleChoice { return "\(strategy): \(impossibleChoice)" }
      return "\(strategy): \(passed ? "draws what it states" : "does NOT draw what it states") over \(visits) visits; "
        + "largest |z| \(NumberFormat.format(worstZ, decimals: 2)) (\(worstTest)), bound \(NumberFormat.format(bound, decimals: 2))"
    }
  }

  /// Runs the check on `worlds` generated worlds from `seed`.
  ///
  /// - Complexity: O(worlds × events × instances).
  public static func check<S: StochasticRankingStrategy>(
    _ strategy: S, worlds: Int = 40, seed: UInt64 = 1, falseAlarm: Double = 0.001
  ) -> Report {
    let box = Draws()
    for w in 0..<worlds {
      let world = GeneratedWorld(seed: seed &+ UInt64(w), instanceCount: 6)
      _ = StrategyConformance.run(
        Audited(base: strategy, draws: box), world, seed: seed &+ UInt64(w), ranksAtEveryVisit: true)
    }
    var report = Report(strategy: S.name)
    report.visits = box.stated.count
    let n = box.stated.map(\.count).max() ?? 0
    // Tests: candidate indices, then probability bins.
    var observed = [Double](repeating: 0, count: n + 5)
    var expected = observed
    var variance = observed
    for (p, c) in zip(box.stated, box.chosen) {
      if c >= 0 && c < p.count && p[c] == 0 {
        report.impossibleChoice = "candidate \(c) came first at a visit where the strategy stated probability 0 for it"
        return report
      }
      var binMass = [Double](repeating: 0, count: 5)
      for (i, q) in p.enumerated() {
        observed[i] += i == c ? 1 : 0
        expected[i] += q
        variance[i] += q * (1 - q)
        let b = min(Int(q * 5), 4)
        binMass[b] += q
        if i == c { observed[n + b] += 1 }
      }
      for b in 0..<5 {
        expected[n + b] += binMass[b]
        variance[n + b] += binMass[b] * (1 - binMass[b])
      }
    }
    let tests = (0..<(n + 5)).filter { variance[$0] > 1e-9 }
    report.bound = twoSidedNormalBound(falseAlarm / Double(max(tests.count, 1)))
    for t in tests {
      let z = abs(observed[t] - expected[t]) / variance[t].squareRoot()
      if z > report.worstZ {
        report.worstZ = z
        report.worstTest =
          t < n ? "candidate \(t): \(Int(observed[t])) first, \(NumberFormat.format(expected[t], decimals: 1)) expected"
          : "stated probabilities in [\(Double(t - n) / 5), \(Double(t - n + 1) / 5)): \(Int(observed[t])) first, "
            + "\(NumberFormat.format(expected[t], decimals: 1)) expected"
      }
    }
    return report
  }

  /// z with P(|Z| > z) = `tail` for a standard normal Z (bisection on erfc).
  static func twoSidedNormalBound(_ tail: Double) -> Double {
    var low = 0.0
    var high = 40.0
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if erfc(mid / 2.0.squareRoot()) > tail { low = mid } else { high = mid }
    }
    return (low + high) / 2
  }

  /// Each visit's stated probabilities and the candidate the ranking put first. A
  /// reference shared by one check's strategy copies; the check runs on one thread.
  final class Draws: @unchecked Sendable {
    var stated: [[Double]] = []
    var chosen: [Int] = []
  }

  /// `base`, recording before each `rank` what it states and after it what came first.
  struct Audited<Base: StochasticRankingStrategy>: RankingStrategy {
    static var info: StrategyInfo { Base.info }
    var base: Base
    let draws: Draws

    init(base: Base, draws: Draws) {
      self.base = base
      self.draws = draws
    }
    init(parameters: StrategyParameters) throws {
      self.init(base: try Base(parameters: parameters), draws: Draws())
    }
    mutating func begin(_ setup: StrategySetup) { base.begin(setup) }
    mutating func observe(_ event: ObservedEvent, context: StackContext) { base.observe(event, context: context) }
    mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
      var p = [Double](repeating: 0, count: context.instanceCount)
      base.choiceProbabilities(context, into: &p)
      base.rank(context, into: &ranking)
      guard context.features.available.contains(true) else { return }
      draws.stated.append(p)
      draws.chosen.append(EngineOrder.first(ranking.scores, allowed: context.features.available, features: context.features))
    }
  }
}
