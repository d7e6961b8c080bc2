import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `context-bandit`: linear Thompson sampling over one-hot context and hour features,
/// learning only from taps.
///
/// **Features.** A visit's feature vector `x ∈ {0,1}^d` has a 1 for the intercept, a 1 for
/// each context signal's current value (`StackContext.device`, one block of the person's
/// vocabulary per signal in `ContextSignal` order; an unknown signal sets nothing) and a 1
/// for the visit's hour bucket (the local day cut into `buckets` equal parts, as `bandit`).
/// So `d = 1 + Σ_s |values of s| + buckets`, and `x` has at most 10 ones.
///
/// **Model** (disjoint linear, one per instance `i`): `A_i = λ·I + Σ x xᵀ` and
/// `b_i = Σ r·x` over the revealed visits that showed `i`, with `r = 1` for a tap and 0
/// otherwise (`observe(outcome:context:)`, with the features of the visit itself:
/// `VisitFeedback.device` and `hourOfDay`); `θ_i = A_i⁻¹ b_i`, the ridge estimate.
///
/// **Ranking.** Linear Thompson sampling (Agrawal and Goyal, 2013) draws
/// `θ̃_i ~ N(θ_i, v² A_i⁻¹)` and scores `θ̃_iᵀx`. Only that product is needed, and it is
/// exactly distributed `N(θ_iᵀx, v² xᵀA_i⁻¹x)`; so the score of candidate `i` is
/// `θ_iᵀx + v·√(xᵀA_i⁻¹x)·z_i`, with `z_i` independent standard normals from the
/// strategy's own seeded stream (xoshiro256** seeded with `StrategySetup.seed`, the
/// ziggurat normal), drawn in instance order. The probability of each shown instance is
/// estimated by redrawing (`EstimatedChoiceProbabilities`), so its exposures can be
/// logged and evaluated with the counterfactual estimators.
///
/// It never sees donations: only whether what the stack showed was used. In a run without
/// context it is a linear bandit over hour buckets (`needs: .context` keeps it out of
/// default lists there).
///
/// - Complexity: `rank` is O(n·k²) for n instances and k ≤ 10 active features; an
///   outcome is O(d²) (a Sherman–Morrison update of `A_i⁻¹` and `θ_i = A_i⁻¹ b_i`);
///   memory O(n·d²).
public struct ContextBanditStrategy: OutcomeLearningStrategy {
  public static let info = StrategyInfo(
    name: "context-bandit",
    summary: "linear Thompson sampling over one-hot context (--context) and hour features, learning from taps only",
    parameters: [
      StrategyParameterSpec(
        "buckets", default: 6, range: 1...24, integer: true,
        help: "equal parts of the local day, one feature each; must divide 24"),
      StrategyParameterSpec(
        "v", default: 0.05, range: 0...100,
        help: "exploration: the posterior's scale; 0 is greedy (deterministic, cannot log exposures)"),
      StrategyParameterSpec("lambda", default: 1, range: 0.001...1000, help: "ridge prior: A starts as lambda times I"),
    ],
    needs: .context)

  /// The largest number of ones in a feature vector: intercept, one per signal, the hour.
  static var maxActive: Int { 2 + ContextSignal.allCases.count }

  let buckets: Int
  let v: Double
  let lambda: Double
  let normal = ZigguratNormal()
  var rng = Xoshiro256StarStar(seed: 0)
  var instanceCount = 0
  /// The model, laid out once the person's vocabulary is known (first rank or outcome).
  var model = LinearArms(instances: 0, dimension: 0, lambda: 1)
  /// `offsets[signal]`: the index of the signal's first value; `offsets.last`: the first
  /// hour bucket. Empty until laid out.
  var offsets: [Int] = []

  public init(parameters: StrategyParameters) throws {
    buckets = Int(parameters["buckets"])
    guard 24 % buckets == 0 else {
      throw StrategyError(
        "strategy 'context-bandit': buckets=\(buckets) does not divide 24 (use 1, 2, 3, 4, 6, 8, 12 or 24)")
    }
    v = parameters["v"]
    lambda = parameters["lambda"]
  }

  public mutating func begin(_ setup: StrategySetup) {
    instanceCount = setup.instanceCount
    rng = Xoshiro256StarStar(seed: setup.seed)
    offsets = []
    model = LinearArms(instances: 0, dimension: 0, lambda: lambda)
  }

  /// Lays the features out from the person's vocabulary (fixed for the person).
  mutating func layOut(_ vocabulary: ContextVocabulary) {
    var next = 1
    offsets = ContextSignal.allCases.map { signal in
      defer { next += vocabulary.count(signal) }
      return next
    }
    offsets.append(next)
    model = LinearArms(instances: instanceCount, dimension: next + buckets, lambda: lambda)
  }

  /// Writes the indices of `x`'s ones into `active` and returns how many.
  func features(_ device: ContextSnapshot, hourOfDay: Int, into active: inout [Int]) -> Int {
    active[0] = 0
    var k = 1
    for signal in ContextSignal.allCases {
      let id = Int(device[signal])
      if id >= 0 && offsets[signal.rawValue] + id < offsets[signal.rawValue + 1] {
        active[k] = offsets[signal.rawValue] + id
        k += 1
      }
    }
    active[k] = offsets[ContextSignal.allCases.count] + hourOfDay * buckets / 24
    return k + 1
  }

  public mutating func observe(outcome feedback: VisitFeedback, context: StackContext) {
    guard feedback.shown >= 0 else { return }
    if offsets.isEmpty { layOut(context.device.vocabulary) }
    var active = [Int](repeating: 0, count: Self.maxActive)
    let k = features(feedback.device, hourOfDay: feedback.hourOfDay, into: &active)
    model.update(Int(feedback.shown), active: active[..<k], reward: feedback.tapped ? 1 : 0)
  }

  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    if offsets.isEmpty { layOut(context.device.vocabulary) }
    var active = [Int](repeating: 0, count: Self.maxActive)
    let k = features(context.device.snapshot, hourOfDay: context.hourOfDay, into: &active)
    var g = rng
    for i in 0..<context.instanceCount where context.isCandidate(i) {
      let (mean, variance) = model.prediction(i, active: active[..<k])
      ranking.scores[i] = mean + v * variance.squareRoot() * normal.next(using: &g)
    }
    rng = g
    ranking.rule = "linear Thompson draw"
  }
}
