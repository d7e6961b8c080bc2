import SmartStackBase
import SmartStackExperiments

/// The Direct Method's reward model: the expected outcome (tap or hit) of showing an
/// instance at a local hour of week, fitted on the exposure log.
///
/// Definition. For the outcome Y (0 or 1) of each logged visit, with `s` sums and `n`
/// counts of Y over the visits that *showed* the instance:
/// - global mean `q = (s + 1/2) / (n + 1)` over all visits (a half-count prior: never
///   exactly 0 or 1);
/// - instance mean `q_i = (s_i + m·q) / (n_i + m)`;
/// - cell mean `q_{i,h} = (s_{i,h} + m·q_i) / (n_{i,h} + m)` for hour of week h (0...167,
///   Monday 00h = 0, in the given zone);
/// with prior strength `m = 2` visits: a cell seen often follows its own mean, a cell
/// never seen falls back to the instance's, an instance never shown to the global mean.
/// The model is fitted once on the whole log (bootstrap intervals do not refit it).
///
/// - Complexity: O(visits) to fit, O(1) per prediction (instances are dense indices).
public struct RewardModel: Sendable {
  /// Prior strength in visits.
  public static let priorVisits = 2.0
  public let global: Double
  /// `q_i`, by instance index.
  public let instance: [Double]
  /// `q_{i,h}` at index `i * 168 + h`.
  public let cell: [Double]

  /// Fits the model; `shown[k]` is visit k's instance index (0..<instanceCount),
  /// `hourOfWeek[k]` its hour of week, `outcome[k]` its Y.
  public init(instanceCount: Int, shown: [Int], hourOfWeek: [Int], outcome: [Bool]) {
    let m = Self.priorVisits
    var s = 0.0
    var si = [Double](repeating: 0, count: instanceCount)
    var ni = [Double](repeating: 0, count: instanceCount)
    var sc = [Double](repeating: 0, count: instanceCount * 168)
    var nc = [Double](repeating: 0, count: instanceCount * 168)
    for k in shown.indices {
      let y = outcome[k] ? 1.0 : 0.0
      s += y
      si[shown[k]] += y
      ni[shown[k]] += 1
      sc[shown[k] * 168 + hourOfWeek[k]] += y
      nc[shown[k] * 168 + hourOfWeek[k]] += 1
    }
    let q = (s + 0.5) / (Double(shown.count) + 1)
    let qi = (0..<instanceCount).map { (si[$0] + m * q) / (ni[$0] + m) }
    global = q
    instance = qi
    cell = (0..<instanceCount * 168).map { (sc[$0] + m * qi[$0 / 168]) / (nc[$0] + m) }
  }

  /// The predicted outcome of showing instance `i` at hour of week `h`; the global mean
  /// for an instance outside the model (`i < 0`).
  @inlinable public func predict(_ i: Int, hourOfWeek h: Int) -> Double {
    i >= 0 && i < instance.count ? cell[i * 168 + h] : global
  }
}
