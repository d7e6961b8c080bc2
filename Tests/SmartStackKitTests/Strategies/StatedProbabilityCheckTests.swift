import Testing
import SmartStackKit
import SmartStackTesting

/// A stranger's stochastic strategy that states uniform probabilities but puts the first
/// candidate first half the time: what the check must catch.
struct OverstatedRandom: StochasticRankingStrategy {
  static let info = StrategyInfo(name: "overstated-random", summary: "states uniform, favours the first candidate")
  var rng = Xoshiro256StarStar(seed: 0)
  init(parameters: StrategyParameters) {}
  init() {}
  mutating func begin(_ setup: StrategySetup) { rng = Xoshiro256StarStar(seed: setup.seed) }
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let candidates = (0..<context.instanceCount).filter(context.isCandidate)
    guard let first = candidates.first else { return }
    let pick = rng.nextUnit() < 0.5 ? first : candidates[rng.nextInt(below: candidates.count)]
    for i in candidates { ranking.scores[i] = i == pick ? 1 : 0 }
  }
  func choiceProbabilities(_ context: StackContext, into probabilities: inout [Double]) {
    let candidates = (0..<context.instanceCount).filter(context.isCandidate)
    for i in candidates { probabilities[i] = 1 / Double(candidates.count) }
  }
}

/// The public conformance checker tests a stochastic strategy's stated probabilities
/// against its own draws (docs/counterfactual.md, "Logging strategies").
@Suite("A stochastic strategy's stated probabilities are checked against its draws")
struct StatedProbabilityCheckTests {
  @Test(arguments: ["random", "epsilon:rate=0.3:base=mfu", "softmax:temperature=0.5:base=hour-of-week"])
  func theBuiltInLoggersDrawWhatTheyState(_ text: String) throws {
    let choice = try StrategyRegistry.builtIn.parse(text)
    struct Check: StrategyTypeVisitor {
      func visit<S: RankingStrategy>(_ prototype: S) -> StatedProbabilityCheck.Report? {
        guard let stochastic = prototype as? any StochasticRankingStrategy else { return nil }
        func open<T: StochasticRankingStrategy>(_ s: T) -> StatedProbabilityCheck.Report { StatedProbabilityCheck.check(s) }
        return open(stochastic)
      }
    }
    let report = try #require(choice.open(Check()))
    #expect(report.passed, "\(report)")
    #expect(report.visits > 1000)
  }

  @Test func aWrongStatementFailsTheCheck() {
    let report = StatedProbabilityCheck.check(OverstatedRandom())
    #expect(!report.passed)
    #expect("\(report)".contains("does NOT draw what it states"), "\(report)")
  }
}
