import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld

extension FitReport {
  /// What a report runs: the log, its fitted scenario, the strategies and replicates.
  public struct Inputs: Sendable {
    public var log: DonationLog
    public var visitLog: VisitLog?
    public var observations: FitObservations
    public var scenario: Scenario
    public var choices: [StrategyChoice]
    public var replicates: Int
    public var seed: UInt64
    /// Seconds after a visit within which the next donation is its target (replay).
    public var horizonSeconds: Double
    public init(
      log: DonationLog, visitLog: VisitLog?, observations: FitObservations, scenario: Scenario,
      choices: [StrategyChoice], replicates: Int, seed: UInt64, horizonSeconds: Double
    ) {
      self.log = log
      self.visitLog = visitLog
      self.observations = observations
      self.scenario = scenario
      self.choices = choices
      self.replicates = replicates
      self.seed = seed
      self.horizonSeconds = horizonSeconds
    }
  }

  /// Replays every strategy on the log (with the scenario's stack and stack rules),
  /// simulates the scenario `replicates` times (seed `seed`, replicates 0..<replicates,
  /// the scenario's people and days) with each strategy, and replays every strategy on
  /// each replicate's simulated log (emitted under the first strategy; with the fitted
  /// taps and opens every want donates whatever is shown, so the log does not depend on
  /// the strategy) with the same replay options. The simulated samples and hit rates
  /// pool the replicates (hits over target visits).
  /// - Throws: `ReplayError` when the log cannot be replayed.
  public static func run(_ inputs: Inputs) throws -> FitReport {
    var options = ReplayOptions()
    options.zone = inputs.observations.zone
    options.horizonSeconds = inputs.horizonSeconds
    options.visits = inputs.visitLog.map { .log($0) } ?? .donations
    let stack = StackSpec(
      file: "scenario", instances: inputs.scenario.stack.instances, catalog: inputs.scenario.catalog)
    options.stack = .fixed(stack)
    options.stackRules = inputs.scenario.stack.rules
    options.seed = inputs.seed
    let logRates = try replayHitRates(inputs.log, options: options, choices: inputs.choices)
    let strategies = inputs.choices.count
    var replayHits = [Int](repeating: 0, count: strategies)
    var replayTargets = [Int](repeating: 0, count: strategies)
    var liveHits = [Int](repeating: 0, count: strategies)
    var liveTargets = [Int](repeating: 0, count: strategies)
    var samples = FitSamples()
    for r in 0..<inputs.replicates {
      for (c, choice) in inputs.choices.enumerated() {
        var emitter: LogEmitter? = c == 0 ? LogEmitter() : nil
        let (metrics, _, _) = choice.simulate(
          inputs.scenario, SimulationCell(replicate: r, seed: inputs.seed, options: SimulationOptions()), emitter: &emitter)
        let total = RunMetrics(metrics, days: LocalDays(zone: inputs.scenario.zone)).total
        liveHits[c] += total.hits
        liveTargets[c] += total.targetVisits
        guard let emitter else { continue }
        let visits = VisitLog(file: "simulated", users: emitter.visitUsers, times: emitter.visitTimes)
        var simulatedOptions = options
        simulatedOptions.visits = inputs.visitLog == nil ? .donations : .log(visits)
        let simulatedLog = emitter.donationLog
        if !simulatedLog.isEmpty {
          let rates = try replayHitRates(simulatedLog, options: simulatedOptions, choices: inputs.choices)
          for k in 0..<strategies {
            replayHits[k] += rates.hits[k]
            replayTargets[k] += rates.targets[k]
          }
        }
        if var simulated = try? FitObservations(
          log: simulatedLog, visitLog: inputs.visitLog == nil ? nil : visits, zone: inputs.observations.zone)
        {
          // Visits per day over the log's window, as for the log.
          simulated.firstDay = inputs.observations.firstDay
          simulated.dayCount = inputs.observations.dayCount
          samples.add(FitSamples(simulated))
        }
      }
    }
    func ratio(_ a: Int, _ b: Int) -> Double { b > 0 ? Double(a) / Double(b) : .nan }
    var report = FitReport()
    let logSamples = FitSamples(inputs.observations)
    report.rows = distributionRows(log: logSamples, simulated: samples)
    report.distributions = distributionsCSV(log: logSamples, simulated: samples)
    let names = inputs.choices.map(\.descriptor.description)
    report.rows += hitRateRows(
      names: names, replayed: (0..<strategies).map { ratio(logRates.hits[$0], logRates.targets[$0]) },
      simulated: (0..<strategies).map { ratio(replayHits[$0], replayTargets[$0]) },
      logVisits: logRates.targets.first ?? 0, simVisits: replayTargets.first ?? 0)
    report.rows += names.indices.map { k in
      Row(
        statistic: "live_hit_rate:\(names[k])", distance: "", logCount: 0, logSummary: "", simCount: liveTargets[k],
        simSummary: NumberFormat.format(ratio(liveHits[k], liveTargets[k]), decimals: 4), value: nil, tolerance: nil,
        within: nil)
    }
    return report
  }

  /// Hits and target visits of every choice replayed over `log`.
  static func replayHitRates(_ log: DonationLog, options: ReplayOptions, choices: [StrategyChoice]) throws
    -> (hits: [Int], targets: [Int])
  {
    let plan = try ReplayPlan(log: log, options: options)
    let days = LocalDays(plan: plan)
    var hits: [Int] = []
    var targets: [Int] = []
    for choice in choices {
      let total = RunMetrics(Replay.run(plan, choice: choice), days: days).total
      hits.append(total.hits)
      targets.append(total.targetVisits)
    }
    return (hits, targets)
  }
}
