import Foundation
import SmartStackBase
import SmartStackExperiments

/// Model-free checks of rule replay's first assumption on a log with randomised display
/// (docs/counterfactual.md, "Model-free checks"): what the stack showed at a visit does
/// not change the person's later wants or visit rate.
///
/// For each visit k followed by another visit of the same person, with stated candidate
/// probabilities π_k and a known want: the *surprise* `X_k = 1[hit_k] − Σ_c π_k(c)·1[c
/// wanted at k]` (how much more the shown widget was wanted than the logger's draw made it
/// on average: 0 at forced visits) and an outcome `Y_k` of what follows:
/// - `next-want`: 1 when the person's next visit has a want;
/// - `next-gap`: the minutes to the person's next visit, capped at 1,440.
/// Under the assumption, the display is drawn independently of what follows given the
/// state, so `S = Σ X_k Y_k` has mean 0; `z = S / √(Σ X_k² Y_k²)` is approximately
/// standard normal and the two-sided p-value is `erfc(|z|/√2)`. The effect is the slope
/// `Σ X_k Y_k / Σ X_k²`. Reported, not gated: a small p-value says the display changed
/// what followed, and rule replay's estimate should not be trusted on that log.
public struct ExposureCheck: Sendable, Hashable {
  public var name: String
  /// Visits that entered the statistic (with a next visit and a non-zero surprise).
  public var visits: Int
  public var effect: Double
  public var z: Double
  public var pValue: Double

  /// Every check of `log`; empty when it states no candidate probabilities.
  ///
  /// - Complexity: O(rows · candidates).
  public static func all(_ log: ExposureLog) -> [ExposureCheck] {
    var next: [Int?] = Array(repeating: nil, count: log.exposures.count)
    var last: [String: Int] = [:]
    for (k, e) in log.exposures.enumerated() {
      if let j = last[e.person] { next[j] = k }
      last[e.person] = k
    }
    var x: [Double] = []
    var nextWant: [Double] = []
    var nextGap: [Double] = []
    for (k, e) in log.exposures.enumerated() {
      guard let n = next[k], let p = e.candidateProbabilities, !e.targets.isEmpty else { continue }
      var expected = 0.0
      for (c, q) in zip(e.candidates, p) where e.targets.contains(c) { expected += q }
      let surprise = (e.hit ? 1 : 0) - expected
      guard abs(surprise) > 1e-12 else { continue }
      let following = log.exposures[n]
      x.append(surprise)
      nextWant.append(following.targets.isEmpty && following.wantApp.isEmpty ? 0 : 1)
      nextGap.append(min(Double(following.time - e.time) / 60_000, 1_440))
    }
    guard !x.isEmpty else { return [] }
    return [check("next-want", x, nextWant), check("next-gap", x, nextGap)]
  }

  static func check(_ name: String, _ x: [Double], _ y: [Double]) -> ExposureCheck {
    var s = 0.0
    var v = 0.0
    var xx = 0.0
    for (a, b) in zip(x, y) {
      s += a * b
      v += a * a * b * b
      xx += a * a
    }
    let z = v > 0 ? s / v.squareRoot() : 0
    return ExposureCheck(
      name: name, visits: x.count, effect: xx > 0 ? s / xx : 0, z: z, pValue: erfc(abs(z) / 2.0.squareRoot()))
  }

  /// `checks.csv`: header `check,visits,effect,z,p_value,note`; numbers to 6 decimals.
  public static func csv(_ checks: [ExposureCheck]) -> String {
    var csv = CSVWriter(header: ["check", "visits", "effect", "z", "p_value", "note"])
    for c in checks {
      csv.append(c.name)
      csv.append(c.visits)
      csv.append(c.effect, decimals: 6)
      csv.append(c.z, decimals: 6)
      csv.append(c.pValue, decimals: 6)
      csv.append(
        c.name == "next-want"
          ? "does the shown widget change whether the next visit has a want? (p < 0.05: rr's assumption fails)"
          : "does the shown widget change the minutes to the next visit? (p < 0.05: rr's assumption fails)")
      csv.endRow()
    }
    return csv.text
  }
}
