/// `bandit`: Thompson sampling per instance and hour bucket, learning only from taps.
///
/// The day is cut into `buckets` equal parts of local time (24 / buckets hours each).
/// For each (instance, bucket) the strategy keeps `taps` and `misses` of the visits that
/// showed that instance in that bucket, as revealed by `.outcome` events (a tap is a
/// visit whose shown instance the person then used). At a visit, the score of each
/// candidate is an independent draw from `Beta(prior-alpha + taps, prior-beta + misses)`
/// for the visit's bucket, from the strategy's own seeded stream, drawn in instance
/// order. It never sees donations' content: only whether what it showed was used.
public struct BanditStrategy: RankingStrategy {
  public static let name = "bandit"
  public static let summary = "Thompson sampling per instance and hour bucket, learning from taps only"
  public static let parameterSpecs = [
    StrategyParameterSpec(
      "buckets", default: 6, range: 1...24, integer: true,
      help: "equal parts of the local day with separate statistics; must divide 24"),
    StrategyParameterSpec("prior-alpha", default: 1, range: 0.001...1000, help: "Beta prior successes"),
    StrategyParameterSpec("prior-beta", default: 1, range: 0.001...1000, help: "Beta prior failures"),
  ]
  let buckets: Int
  let alpha: Double
  let beta: Double
  var taps: [Double] = []
  var misses: [Double] = []
  var rng = Xoshiro256StarStar(seed: 0)

  public init(parameters: StrategyParameters) throws {
    buckets = Int(parameters["buckets"])
    guard 24 % buckets == 0 else {
      throw StrategyError("strategy 'bandit': buckets=\(buckets) does not divide 24 (use 1, 2, 3, 4, 6, 8, 12 or 24)")
    }
    alpha = parameters["prior-alpha"]
    beta = parameters["prior-beta"]
  }

  public mutating func begin(_ setup: StrategySetup) {
    taps = Array(repeating: 0, count: setup.instanceCount * buckets)
    misses = taps
    rng = Xoshiro256StarStar(seed: setup.seed)
  }

  @inline(__always) func bucket(_ hourOfDay: Int) -> Int { hourOfDay / (24 / buckets) }

  public mutating func observe(_ event: ObservedEvent, context: StackContext) {
    guard case .outcome(let feedback) = event, feedback.shown >= 0 else { return }
    let k = Int(feedback.shown) * buckets + bucket(feedback.hourOfDay)
    if feedback.tapped { taps[k] += 1 } else { misses[k] += 1 }
  }

  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let b = bucket(context.hourOfDay)
    for i in 0..<context.instanceCount where context.isCandidate(i) {
      let k = i * buckets + b
      ranking.scores[i] = rng.nextBeta(alpha + taps[k], beta + misses[k])
    }
    ranking.rule = "Thompson draw"
  }
}
