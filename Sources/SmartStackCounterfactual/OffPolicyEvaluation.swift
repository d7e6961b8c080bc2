import SmartStackBase
import SmartStackExperiments

/// One row of `estimates.csv`: one estimator's estimate of one metric of one target.
public struct EstimateRow: Sendable, Hashable {
  public var strategy: String
  public var estimator: OffPolicyEstimator
  /// `tap_rate` (the reward: taps on the shown widget per visit) or `hit_rate` (visits
  /// whose shown widget was wanted, per visit).
  public var metric: String
  /// nil when not defined (`snips` with no weighted visit).
  public var estimate: Double?
  public var interval: (low: Double, high: Double)?
  public var visits: Int
  public var people: Int
  public var effectiveSampleSize: Double
  /// Share of visits where the target's choice had logging probability 0; nil when the
  /// log does not state the candidates' probabilities and the target chose another
  /// widget than the shown one somewhere.
  public var zeroProbabilityShare: Double?
  public var note: String

  public static func == (a: EstimateRow, b: EstimateRow) -> Bool {
    a.strategy == b.strategy && a.estimator == b.estimator && a.metric == b.metric && a.estimate == b.estimate
      && a.interval?.low == b.interval?.low && a.interval?.high == b.interval?.high && a.visits == b.visits
      && a.people == b.people && a.effectiveSampleSize == b.effectiveSampleSize
      && a.zeroProbabilityShare == b.zeroProbabilityShare && a.note == b.note
  }
  public func hash(into hasher: inout Hasher) {
    hasher.combine(strategy)
    hasher.combine(estimator)
    hasher.combine(metric)
  }
}

/// Off-policy estimates of target strategies from an exposure log.
public enum OffPolicyEvaluation {
  /// The metrics, in output order, with the outcome each reads.
  public static let metrics: [(name: String, outcome: @Sendable (Exposure) -> Bool)] = [
    ("tap_rate", { $0.reward }), ("hit_rate", { $0.hit }),
  ]

  /// Every (target, estimator, metric) row, targets in the given order, then
  /// estimators (`dm`, `ips`, `snips`, `dr`), then metrics (`tap_rate`, `hit_rate`).
  ///
  /// - Parameters:
  ///   - targets: each target's label and its choice at every exposure (`TargetChoices`);
  ///     at a `forced` exposure the choice is taken to be the shown widget.
  ///   - zone: the zone of the reward model's hour of week.
  ///   - seed: the bootstrap's master seed; row `(strategy, estimator, metric)` draws
  ///     from `Bootstrap.generator(masterSeed: seed, rowKey: "evaluate|S|E|M")`.
  /// - Complexity: O(targets · (visits + resamples · people)).
  public static func estimates(
    _ log: ExposureLog, targets: [(label: String, choices: [String])], zone: ZoneRules, seed: UInt64,
    resamples: Int = Bootstrap.resamples
  ) -> [EstimateRow] {
    estimates(
      log, targets: targets.map { Target(label: $0.label, choices: $0.choices) }, estimators: OffPolicyEstimator.singleVisit,
      zone: zone, seed: seed, resamples: resamples)
  }

  /// One target's inputs: its label, its choice at every exposure (`TargetChoices`) and,
  /// for rule replay's estimators, its per-person sums (`RuleReplay.sums`), people in
  /// the log's order.
  public struct Target: Sendable {
    public var label: String
    public var choices: [String]
    public var ruleReplay: [RuleReplay.PersonSums]? = nil
    public var ruleReplayNoRules: [RuleReplay.PersonSums]? = nil
    public init(
      label: String, choices: [String], ruleReplay: [RuleReplay.PersonSums]? = nil,
      ruleReplayNoRules: [RuleReplay.PersonSums]? = nil
    ) {
      self.label = label
      self.choices = choices
      self.ruleReplay = ruleReplay
      self.ruleReplayNoRules = ruleReplayNoRules
    }
  }

  /// Every (target, estimator, metric) row of `estimators` (in that order within a
  /// target); a rule-replay estimator's rows need the target's `ruleReplay` sums
  /// (`ruleReplayNoRules` for the ablation) and are left out without them.
  public static func estimates(
    _ log: ExposureLog, targets: [Target], estimators: [OffPolicyEstimator], zone: ZoneRules, seed: UInt64,
    resamples: Int = Bootstrap.resamples
  ) -> [EstimateRow] {
    // Dense ids: instances in order of first appearance, people likewise.
    var instanceIndex: [String: Int] = [:]
    for e in log.exposures {
      for c in e.candidates where instanceIndex[c] == nil { instanceIndex[c] = instanceIndex.count }
    }
    let people = log.people
    var personIndex: [String: Int] = [:]
    for (i, p) in people.enumerated() { personIndex[p] = i }
    let shown = log.exposures.map { instanceIndex[$0.shown]! }
    let hours = log.exposures.map { WallClock.hourOfWeek(zone.localMilliseconds(at: Instant(milliseconds: $0.time))) }
    var rows: [EstimateRow] = []
    let forcedShare = Double(log.exposures.count { $0.forced }) / Double(max(log.exposures.count, 1))
    for var target in targets {
      // At a forced visit every strategy shows what was shown.
      for (k, e) in log.exposures.enumerated() where e.forced { target.choices[k] = e.shown }
      var zero = 0
      var unknown = 0
      for (k, e) in log.exposures.enumerated() {
        switch e.loggingProbability(of: target.choices[k]) {
        case .none: unknown += 1
        case .some(let p) where p == 0: zero += 1
        default: break
        }
      }
      let n = log.exposures.count
      let zeroShare: Double? = unknown > 0 ? nil : Double(zero) / Double(n)
      var models: [[OffPolicySums]] = []
      for metric in metrics {
        let outcomes = log.exposures.map(metric.outcome)
        let model = RewardModel(
          instanceCount: instanceIndex.count, shown: shown, hourOfWeek: hours, outcome: outcomes)
        var sums = [OffPolicySums](repeating: OffPolicySums(), count: people.count)
        // pdis-1h: each person's window start and running weight.
        var windowStart = [Int64](repeating: Int64.min, count: people.count)
        var rho = [Double](repeating: 1, count: people.count)
        for (k, e) in log.exposures.enumerated() {
          let choice = instanceIndex[target.choices[k]] ?? -1
          let p = personIndex[e.person]!
          if windowStart[p] == Int64.min || e.time >= windowStart[p] &+ 3_600_000 {
            windowStart[p] = e.time
            rho[p] = 1
          }
          rho[p] *= target.choices[k] == e.shown ? 1 / e.propensity : 0
          sums[p].pdis += outcomes[k] ? rho[p] : 0
          sums[p].add(
            outcome: outcomes[k], propensity: e.propensity, matches: target.choices[k] == e.shown,
            predictedChoice: model.predict(choice, hourOfWeek: hours[k]),
            predictedShown: model.predict(shown[k], hourOfWeek: hours[k]))
        }
        for (p, r) in (target.ruleReplay ?? []).enumerated() where p < sums.count {
          sums[p].rr = metric.name == "tap_rate" ? r.taps : r.hits
          sums[p].rrDR = metric.name == "tap_rate" ? r.tapsDR : r.hits
        }
        for (p, r) in (target.ruleReplayNoRules ?? []).enumerated() where p < sums.count {
          sums[p].rrNoRules = metric.name == "tap_rate" ? r.taps : r.hits
        }
        models.append(sums)
      }
      for estimator in estimators {
        if estimator == .rrNoRules ? target.ruleReplayNoRules == nil : estimator.isRuleReplay && target.ruleReplay == nil {
          continue
        }
        for (m, metric) in metrics.enumerated() {
          let total = models[m].reduce(OffPolicySums(), +)
          var generator = Bootstrap.generator(
            masterSeed: seed, rowKey: "evaluate|\(target.label)|\(estimator.rawValue)|\(metric.name)")
          // A rate lies in [0, 1]: the interval is cut there (weighted estimators' resamples
          // can reach past it), and the note says so.
          let raw = PeopleBootstrap.interval(models[m], estimator, resamples: resamples, using: &generator)
          let clipped = raw.map { (low: min(max($0.low, 0), 1), high: min(max($0.high, 0), 1)) }
          let cut = raw.map { $0.low < 0 || $0.high > 1 } ?? false
          rows.append(
            EstimateRow(
              strategy: target.label, estimator: estimator, metric: metric.name, estimate: total.estimate(estimator),
              interval: clipped,
              visits: n, people: people.count, effectiveSampleSize: total.effectiveSampleSize,
              zeroProbabilityShare: zeroShare,
              note: [
                note(estimator, zero: zero, unknown: unknown, visits: n, total: total, forcedShare: forcedShare),
                cut ? "interval cut to [0, 1]" : "",
              ].filter { !$0.isEmpty }.joined(separator: "; ")))
        }
      }
    }
    return rows
  }

  /// What a reader must know about a row's estimate (empty when nothing).
  static func note(
    _ estimator: OffPolicyEstimator, zero: Int, unknown: Int, visits: Int, total: OffPolicySums, forcedShare: Double = 0
  ) -> String {
    if estimator == .pdisWindow {
      return "switching to the target for one hour from the logger's state (per-decision importance sampling "
        + "over one-hour windows); assumes the logged propensities are right"
    }
    if estimator.isRuleReplay {
      return "on-policy value by rule replay; assumes visits, wants and timelines do not depend on what is shown, "
        + "fixed per-person response probabilities, and known stack rules"
    }
    let forced =
      forcedShare > 0
      ? "one-visit deviation from the logger's state; the stack's rules forced "
        + "\(NumberFormat.format(forcedShare * 100, decimals: 1)) % of visits"
      : ""
    func join(_ a: String) -> String { forced.isEmpty ? a : a.isEmpty ? forced : forced + "; " + a }
    return join(singleVisitNote(estimator, zero: zero, unknown: unknown, visits: visits, total: total))
  }

  static func singleVisitNote(_ estimator: OffPolicyEstimator, zero: Int, unknown: Int, visits: Int, total: OffPolicySums) -> String {
    guard estimator != .dm else { return "" }
    if estimator == .snips && total.weight == 0 {
      return "not defined: the target never chose the logged widget (no weighted visit)"
    }
    if zero > 0 {
      return "IPS not defined at \(zero) of \(visits) visits: the target chose a widget the logging policy "
        + "could not show (probability 0); those visits count as outcome 0, so the estimate is biased low"
    }
    if unknown > 0 {
      return "the log states no candidate probabilities: at \(unknown) of \(visits) visits the target chose "
        + "another widget whose logging probability is unknown (if 0, the estimate is biased low)"
    }
    return ""
  }

  /// `estimates.csv`: header `logging_strategy,strategy,estimator,metric,estimate,ci_low,
  /// ci_high,visits,people,effective_sample_size,zero_probability_share,note`; numbers
  /// rounded to 6 decimals; empty cells where a value is not defined.
  public static func csv(_ rows: [EstimateRow], loggingStrategy: String) -> String {
    var csv = CSVWriter(header: [
      "logging_strategy", "strategy", "estimator", "metric", "estimate", "ci_low", "ci_high", "visits", "people",
      "effective_sample_size", "zero_probability_share", "note",
    ])
    func number(_ x: Double?) {
      if let x { csv.append(x, decimals: 6) } else { csv.append("") }
    }
    for r in rows {
      csv.append(loggingStrategy)
      csv.append(r.strategy)
      csv.append(r.estimator.rawValue)
      csv.append(r.metric)
      number(r.estimate)
      number(r.interval?.low)
      number(r.interval?.high)
      csv.append(r.visits)
      csv.append(r.people)
      number(r.effectiveSampleSize)
      number(r.zeroProbabilityShare)
      csv.append(r.note)
      csv.endRow()
    }
    return csv.text
  }
}
