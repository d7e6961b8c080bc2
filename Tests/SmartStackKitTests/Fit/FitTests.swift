import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackWorld
@testable import SmartStackExperiments

/// A known world: one persona, 8 people, 28 days, a weekday/weekend routine.
private let knownScenario = """
  {"name": "known", "start": "2026-03-02", "days": 28, "timezone": "Europe/Berlin", "seed": 11,
   "people": [{"name": "p", "count": 8, "visitsPerDay": 40, "sleep": {"from": "23:00", "to": "07:00"},
     "wantProbability": 0.4, "repeat": {"probability": 0.3, "minutes": 30},
     "routine": {"weekday": [{"hours": "7-12", "wants": {"transit": 3, "news": 1}},
                             {"hours": "12-23", "wants": {"news": 1, "weather": 1}}],
                 "weekend": [{"hours": "9-23", "wants": {"weather": 1}}]}}],
   "stack": {"instances": [{"id": "transit", "kind": "Transit"}, {"id": "news", "kind": "News"},
                           {"id": "weather", "kind": "Weather"}]},
   "apps": [{"id": "transit", "kind": "Transit"}, {"id": "news", "kind": "News"},
            {"id": "weather", "kind": "Weather"}]}
  """

/// The known world's logs (replicate 0, strategy mfu, master seed `seed`) as observations.
private func knownObservations(seed: UInt64 = 11) throws -> (Scenario, FitObservations) {
  let scenario = try Scenario.read(bytes: Array(knownScenario.utf8), file: "known.json")
  var emitter: LogEmitter? = LogEmitter()
  _ = Simulation.run(
    scenario, choice: try StrategyRegistry.builtIn.parse("mfu"), replicate: 0, seed: seed,
    options: SimulationOptions(), observer: StandardMetrics(), emitter: &emitter)
  let world = try #require(emitter)
  let visits = VisitLog(file: "visits.csv", users: world.visitUsers, times: world.visitTimes)
  return (scenario, try FitObservations(log: world.donationLog, visitLog: visits, zone: scenario.zone))
}

@Suite("Fitting a scenario to a log")
struct FitTests {
  /// The fitted scenario is an ordinary scenario file: the reader accepts it and finds
  /// the fitted people, days, zone, 168-hour rhythm and want probabilities.
  @Test func theFittedScenarioRoundTripsThroughTheScenarioReader() throws {
    let (known, observations) = try knownObservations()
    var options = FittedScenario.Options()
    options.clusters = 2
    let fitted = try FittedScenario(observations, options: options)
    let read = try Scenario.read(bytes: Array(fitted.jsonText().utf8), file: "fitted.json")
    #expect(read.personCount == known.personCount)
    #expect(read.days == known.days)
    #expect(read.startDay == known.startDay)
    #expect(read.zone.identifier == "Europe/Berlin")
    #expect(read.personas.allSatisfy { $0.rhythm.count == 168 && $0.wantProbability.count == 168 })
    #expect(read.apps.map(\.kind).sorted() == ["News", "Transit", "Weather"])
  }

  /// A log generated from a known scenario (with each seed) is fitted back within
  /// sampling error: visits per day, the want probability, the sleep window, the
  /// weekday/weekend app mix and the repeat probability.
  @Test(arguments: [UInt64(1), 2, 3, 4, 5])
  func theKnownWorldsRatesAreRecovered(seed: UInt64) throws {
    let (_, observations) = try knownObservations(seed: seed)
    let fitted = try FittedScenario(observations, options: FittedScenario.Options())
    let persona = try #require(fitted.personas.first)
    #expect(fitted.personas.count == 1)
    // 8 people x 28 days x 40 visits: Poisson, standard error sqrt(8960)/224 = 0.42.
    #expect(abs(persona.visitsPerDay - 40) < 4 * 0.43)
    // Sleep 23:00-07:00 seen from the visits: within half an hour at both ends.
    #expect(abs(persona.sleepFrom - 23 * 60) <= 30)
    #expect(abs(persona.sleepTo - 7 * 60) <= 30)
    // Want probability 0.4 at a weekday noon hour; the hour has ~8 x 4 x 40/16 visits.
    let noon = 2 * 24 + 12  // Wednesday 12h
    #expect(abs(persona.wantProbability[noon] - 0.4) < 0.15)
    // Weekend 6h: asleep until 7, no visits.
    #expect(persona.rhythm[5 * 24 + 6] == 0)
    // Weekday 8h: transit 3 : news 1; weekend: weather only.
    let transit = try #require(fitted.appIDs.firstIndex(of: "transit"))
    let news = try #require(fitted.appIDs.firstIndex(of: "news"))
    let weather = try #require(fitted.appIDs.firstIndex(of: "weather"))
    let weekday8 = persona.routine[0][8]
    let share = weekday8[transit] / (weekday8[transit] + weekday8[news] + weekday8[weather])
    #expect(abs(share - 0.75) < 0.1)
    let weekend15 = persona.routine[1][15]
    #expect(weekend15[weather] > 10 * (weekend15[transit] + weekend15[news]))
    // Repeat 0.3: about 1300 close pairs, half of them at hours with two apps (standard
    // error about 0.03): within 0.1.
    #expect(abs(persona.repeatProbability - 0.3) < 0.1, "\(persona.repeatProbability)")
  }

  /// The same log, clusters and seed give the same bytes.
  @Test func theSeedMakesTheFitByteIdentical() throws {
    let (_, observations) = try knownObservations()
    var options = FittedScenario.Options()
    options.clusters = 3
    options.seed = 42
    let a = try FittedScenario(observations, options: options).jsonText()
    let b = try FittedScenario(observations, options: options).jsonText()
    #expect(a == b)
  }

  /// Clusters separate two different kinds of people; `k` at least the number of people
  /// fits each person alone.
  @Test func clusteringSeparatesDifferentPeople() {
    let features = [[1.0, 0], [0.9, 0.1], [0, 1], [0.1, 0.9], [1, 0.05]]
    let assignment = FitClustering.assign(features, clusters: 2, seed: 7)
    #expect(assignment == [0, 0, 1, 1, 0])
    #expect(FitClustering.assign(features, clusters: 9, seed: 7) == [0, 1, 2, 3, 4])
  }

  /// A log with no event is refused with a message.
  @Test func anEmptyLogIsRefused() {
    #expect(throws: FitError.self) {
      try FitObservations(log: DonationLog([]), visitLog: nil, zone: .utc)
    }
  }
}

@Suite("Fit report distances")
struct FitDistanceTests {
  /// KS is 0 for equal samples, 1 for disjoint ones and the largest CDF gap otherwise.
  @Test func ksIsTheLargestGapBetweenTheEmpiricalDistributions() {
    #expect(FitDistances.ks([1, 2, 3], [1, 2, 3]) == 0)
    #expect(FitDistances.ks([1, 2], [3, 4]) == 1)
    #expect(FitDistances.ks([1, 2, 3, 4], [1, 2]) == 0.5)
    #expect(FitDistances.ks([0, 0, 1], [0, 1, 1]) > 0.33)
  }

  /// TV is half the L1 distance between the normalised counts.
  @Test func tvIsHalfTheL1DistanceOfTheShares() {
    #expect(FitDistances.tv([1, 0], [0, 5]) == 1)
    #expect(FitDistances.tv([2, 2], [1, 1]) == 0)
    #expect(abs(FitDistances.tv([3, 1], [1, 1]) - 0.25) < 1e-12)
  }

  /// Tolerances shrink with the sample sizes towards the modelling allowance.
  @Test func tolerancesShrinkWithTheSamples() {
    #expect(FitDistances.ksTolerance(100, 100) > FitDistances.ksTolerance(10_000, 10_000))
    #expect(FitDistances.ksTolerance(1_000_000, 1_000_000) < FitDistances.allowance + 0.003)
    #expect(FitDistances.tvTolerance([10, 10], [10, 10]) > FitDistances.tvTolerance([1000, 1000], [1000, 1000]))
  }

  /// The hit-rate rows give both orders and say whether they agree.
  @Test func strategyOrdersAreComparedByHitRate() {
    let rows = FitReport.hitRateRows(
      names: ["a", "b", "c"], replayed: [0.2, 0.5, 0.3], simulated: [0.25, 0.45, 0.35], logVisits: 10, simVisits: 10)
    let order = rows.last!
    #expect(order.logSummary == "b>c>a")
    #expect(order.simSummary == "b>c>a")
    #expect(order.within == true)
    let swapped = FitReport.hitRateRows(
      names: ["a", "b"], replayed: [0.2, 0.5], simulated: [0.5, 0.2], logVisits: 1, simVisits: 1)
    #expect(swapped.last!.within == false)
  }
}
