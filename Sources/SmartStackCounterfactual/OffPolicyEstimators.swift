import SmartStackBase
import SmartStackExperiments

/// An off-policy estimator of a target strategy's mean outcome per visit
/// (docs/counterfactual.md, "Definitions").
///
/// For logged visits k = 1…n with outcome Y_k (0 or 1), logging propensity p_k of the
/// shown widget, target choice c_k, weight `w_k = 1[c_k = shown_k] / p_k` and reward
/// model q̂ (`RewardModel`):
/// - `dm`: `(1/n) Σ q̂(c_k)`;
/// - `ips`: `(1/n) Σ w_k Y_k`;
/// - `snips`: `Σ w_k Y_k / Σ w_k` (undefined when no visit has weight: written empty);
/// - `dr`: `(1/n) Σ [q̂(c_k) + w_k (Y_k − q̂(shown_k))]`.
///
/// These four estimate a *one-visit* deviation: the value of letting the target choose
/// at one visit, in the logger's state. Rule replay estimates the *on-policy* value
/// (`RuleReplay`; version-2 logs with a sidecar only):
/// - `rr`: `(1/n) Σ` the target's outcome in its own re-run under the stack's rules;
/// - `rr-dr`: the same trajectories with the tap term `m(c_k) + w_k (Y_k − m(shown_k))`,
///   m the fitted tap model; its hit rate is `rr`'s;
/// - `rr-no-rules`: an ablation: `rr` with pins, Smart Rotate off and the rotation limit
///   switched off inside the re-run (it should fail validation: the rules matter).
///
/// And for *a window*, switching to the target for one hour from the logger's state:
/// - `pdis-1h`: per-decision importance sampling over each person's consecutive one-hour
///   windows (the first starting at the person's first visit, each next one at the first
///   visit an hour or more after the last start): `(1/n) Σ_k ρ_k Y_k` with
///   `ρ_k = Π w_j` over the window's visits j ≤ k (Precup et al. 2000).
public enum OffPolicyEstimator: String, Sendable, CaseIterable {
  case dm, ips, snips, dr
  case pdisWindow = "pdis-1h"
  case rr
  case rrDR = "rr-dr"
  case rrNoRules = "rr-no-rules"

  /// The single-visit estimators.
  public static let singleVisit: [OffPolicyEstimator] = [.dm, .ips, .snips, .dr]
  /// The default of `evaluate`: every estimator but the ablation.
  public static let standard: [OffPolicyEstimator] = [.dm, .ips, .snips, .dr, .pdisWindow, .rr, .rrDR]

  /// True for rule replay's estimators, which need a version-2 log and its sidecar.
  public var isRuleReplay: Bool { self == .rr || self == .rrDR || self == .rrNoRules }
}

/// Sums over one person's visits from which every estimator follows: the person is the
/// bootstrap's resampling unit.
public struct OffPolicySums: Sendable, Hashable {
  /// Visits.
  public var n = 0.0
  /// Σ q̂(c_k).
  public var dm = 0.0
  /// Σ w_k Y_k.
  public var ips = 0.0
  /// Σ w_k and Σ w_k².
  public var weight = 0.0
  public var weightSquared = 0.0
  /// Σ [q̂(c_k) + w_k (Y_k − q̂(shown_k))].
  public var dr = 0.0
  /// Rule replay's sums of the outcome over the person's visits (`RuleReplay`): `rr`,
  /// `rr-dr` and the ablation.
  public var rr = 0.0
  public var rrDR = 0.0
  public var rrNoRules = 0.0
  /// Σ ρ_k Y_k over one-hour windows (`pdis-1h`).
  public var pdis = 0.0

  public init() {}

  /// Adds one visit. `propensity` must be > 0 (the exposure-log reader refuses 0); a
  /// visit where the target's choice is not the shown widget has weight 0 and divides
  /// by nothing.
  public mutating func add(outcome: Bool, propensity: Double, matches: Bool, predictedChoice: Double, predictedShown: Double) {
    let y = outcome ? 1.0 : 0.0
    let w = matches ? 1 / propensity : 0
    n += 1
    dm += predictedChoice
    ips += w * y
    weight += w
    weightSquared += w * w
    dr += predictedChoice + w * (y - predictedShown)
  }

  public static func + (a: OffPolicySums, b: OffPolicySums) -> OffPolicySums {
    var s = a
    s.n += b.n
    s.dm += b.dm
    s.ips += b.ips
    s.weight += b.weight
    s.weightSquared += b.weightSquared
    s.dr += b.dr
    s.rr += b.rr
    s.rrDR += b.rrDR
    s.rrNoRules += b.rrNoRules
    s.pdis += b.pdis
    return s
  }

  /// The estimate of `estimator` from these sums; nil when it is not defined (no visit,
  /// or `snips` with no weight).
  public func estimate(_ estimator: OffPolicyEstimator) -> Double? {
    value(estimator).flatMap { $0.isFinite ? $0 : nil }
  }

  func value(_ estimator: OffPolicyEstimator) -> Double? {
    guard n > 0 else { return nil }
    switch estimator {
    case .dm: return dm / n
    case .ips: return ips / n
    case .snips: return weight > 0 ? ips / weight : nil
    case .dr: return dr / n
    case .rr: return rr / n
    case .rrDR: return rrDR / n
    case .rrNoRules: return rrNoRules / n
    case .pdisWindow: return pdis / n
    }
  }

  /// Kish's effective sample size of the importance weights, `(Σ w)² / Σ w²` (0 when no
  /// visit has weight): how many on-policy visits the weighted ones are worth.
  public var effectiveSampleSize: Double { weightSquared > 0 ? weight * weight / weightSquared : 0 }
}

/// Percentile bootstrap over people of an estimator from per-person sums.
public enum PeopleBootstrap {
  /// Draws `resamples` samples of the people with replacement (each by
  /// `nextInt(below: people)` of `generator`, in order), adds the drawn people's sums,
  /// and returns the type-7 quantiles (`Bootstrap.quantile`) at (1 - level)/2 and
  /// (1 + level)/2 of the defined estimates; nil with no person or no defined estimate.
  ///
  /// - Complexity: O(resamples · people + resamples log resamples).
  public static func interval<G: RandomNumberGenerator>(
    _ people: [OffPolicySums], _ estimator: OffPolicyEstimator, resamples: Int = Bootstrap.resamples,
    level: Double = Bootstrap.level, using generator: inout G
  ) -> (low: Double, high: Double)? {
    resampled(people, estimator, resamples: resamples, level: level, using: &generator)
  }

  /// `interval` with the generator `evaluate` uses (`Bootstrap.generator`): the same draws
  /// and result, the shared body specialised for this type here (as
  /// `Bootstrap.meanInterval`'s is: a caller in another file of a debug build cannot).
  static func interval(
    _ people: [OffPolicySums], _ estimator: OffPolicyEstimator, resamples: Int = Bootstrap.resamples,
    level: Double = Bootstrap.level, using generator: inout Xoshiro256StarStar
  ) -> (low: Double, high: Double)? {
    resampled(people, estimator, resamples: resamples, level: level, using: &generator)
  }

  private static func resampled<G: RandomNumberGenerator>(
    _ people: [OffPolicySums], _ estimator: OffPolicyEstimator, resamples: Int, level: Double,
    using generator: inout G
  ) -> (low: Double, high: Double)? {
    guard !people.isEmpty else { return nil }
    var estimates: [Double] = []
    estimates.reserveCapacity(resamples)
    for _ in 0..<resamples {
      var total = OffPolicySums()
      for _ in 0..<people.count { total = total + people[generator.nextInt(below: people.count)] }
      if let e = total.estimate(estimator) { estimates.append(e) }
    }
    guard !estimates.isEmpty else { return nil }
    estimates.sort()
    return (Bootstrap.quantile(sorted: estimates, (1 - level) / 2), Bootstrap.quantile(sorted: estimates, (1 + level) / 2))
  }
}
