import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// What `Bench.run` measured. Rates are computed from the fastest of the repetitions.
///
/// Units: seconds of wall-clock time (monotonic clock); MB = 1,000,000 bytes.
/// - `visits_per_s` = scored visits / engine seconds of the strategy (people's
///   generation excluded);
/// - `events_per_s` = (visits + donations + relevance entries) / the same seconds;
/// - `ns_per_decision` = the same seconds × 10^9 / ranking decisions, where every visit
///   is one ranking decision: the mean cost of a decision including its share of the
///   donations and entries between visits (so `ns_per_decision = 10^9 / visits_per_s`);
/// - ingest `rows_per_s` and `mb_per_s` = rows and bytes of the generated log / seconds
///   of `DonationLog.read(bytes:...)`;
/// - `peak_rss_mb` = the process's peak resident set size at the end (`VmHWM`), which
///   includes the ingest logs held in memory; `simulation_peak_rss_mb` the same after the
///   simulation phase, before any ingest log exists.
public struct BenchReport: Sendable {
  /// One strategy's simulation result.
  public struct StrategyResult: Sendable, Hashable {
    /// The strategy as written in outputs (`mfu`, `bandit:buckets=4`).
    public var name: String
    /// Scored visits (= ranking decisions) in one pass.
    public var visits = 0
    /// Engine seconds of the fastest pass (wall clock).
    public var seconds = Double.infinity
    /// The same, in CPU time of the thread: close to `seconds` on an idle machine; when
    /// other processes share the core, wall time grows and CPU time much less.
    public var cpuSeconds = Double.infinity
    /// Pooled hit rate, a check that the workload means something (and is the same
    /// from run to run).
    public var hitRate = Double.nan
    /// Visits decided without calling `rank`: the previous decision reused, or updated
    /// for the instances whose own inputs changed (`PureRankingStrategy`,
    /// `InstanceScoringStrategy`), in one pass.
    public var reusedDecisions = 0
    /// `reusedDecisions / visits`.
    public var reusedFraction: Double { visits > 0 ? Double(reusedDecisions) / Double(visits) : 0 }
  }

  /// One ingest measurement.
  public struct IngestResult: Sendable, Hashable {
    public var rows = 0
    public var bytes = 0
    public var seconds = Double.infinity
    public var cpuSeconds = Double.infinity
    public var rowsPerSecond: Double { Double(rows) / seconds }
    public var megabytesPerSecond: Double { Double(bytes) / 1_000_000 / seconds }
  }

  public var workload: BenchWorkload
  public var repetitions: Int
  /// True for `--quick` (recorded so that baselines of another mode are refused).
  public var quick = false
  /// `release` or `debug`: how this code was compiled.
  public var build = BenchReport.currentBuild
  public var machine = BenchMachine.current()
  /// Visits, donations and relevance entries of all people (one pass).
  public var visits = 0
  public var donations = 0
  public var entries = 0
  /// Seconds spent generating the people (excluded from every rate).
  public var generationSeconds = Double.infinity
  public var strategies: [StrategyResult] = []
  public var csv = IngestResult()
  public var jsonl = IngestResult()
  public var peakRSSBytes: Int?
  public var simulationPeakRSSBytes: Int?

  public init(workload: BenchWorkload, repetitions: Int) {
    self.workload = workload
    self.repetitions = repetitions
  }

  /// The build configuration: `release`, or `debug`, slower and refused against a release
  /// baseline (the bench and the commands unoptimised; the library's layers optimised
  /// with `-O` but file by file, not as whole modules: `Package.swift`).
  public static var currentBuild: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  public var events: Int { visits + donations + entries }

  public func visitsPerSecond(_ s: StrategyResult) -> Double { Double(s.visits) / s.seconds }
  public func eventsPerSecond(_ s: StrategyResult) -> Double { Double(events) / s.seconds }
  public func nanosecondsPerDecision(_ s: StrategyResult) -> Double {
    s.visits == 0 ? .nan : s.seconds * 1e9 / Double(s.visits)
  }
}

// MARK: - Targets

extension BenchReport {
  /// A performance target of issue 7 and whether this run met it.
  public struct TargetCheck: Sendable, Hashable {
    /// What is measured, e.g. `mfu visits/s` or `CSV ingest MB/s`.
    public var what: String
    public var minimum: Double
    public var measured: Double
    public var met: Bool { measured >= minimum }
  }

  /// Minimum visits/s per strategy name (one core, release build).
  public static let visitTargets: [(strategy: String, visitsPerSecond: Double)] = [
    ("mfu", 10e6), ("mru", 10e6), ("hour-of-day", 10e6), ("relevance", 10e6),
    ("smart-rotate", 3e6), ("bandit", 3e6), ("markov", 3e6),
  ]
  /// Minimum ingest MB/s.
  public static let csvTarget = 200.0
  public static let jsonlTarget = 100.0
  /// The smallest generated log whose ingest speed is judged against its target: a read
  /// of fewer bytes takes a few milliseconds or less, too short to time (`--ingest-rows
  /// 1000` makes 0.1 MB), so it is reported as not judged instead of met or missed.
  public static let ingestJudgedBytes = 10_000_000

  /// The fewest visits in a pass whose speed is judged against its strategy's target: a
  /// smaller pass lasts under a millisecond at the targets' speeds, and what a pass costs
  /// once (its people and its strategy set up) weighs in it (`--people 2 --days 1`, 179
  /// visits: mfu 2.4 M visits/s against 4.4-5.0 M from 900 to 36,000 visits, the 2-core
  /// VM, 2026-12-07), so it is reported as not judged instead of met or missed.
  public static let strategyJudgedVisits = 10_000

  /// Whether an ingest result is large enough to judge (`ingestJudgedBytes`).
  static func judged(_ r: IngestResult) -> Bool { r.bytes >= ingestJudgedBytes }

  /// Whether a strategy's pass is large enough to judge (`strategyJudgedVisits`).
  static func judged(_ s: StrategyResult) -> Bool { s.visits >= strategyJudgedVisits }

  /// The targets that applied to what ran but were not judged, in report order: a
  /// strategy's pass under `strategyJudgedVisits`, a log read under `ingestJudgedBytes`.
  public var unjudgedTargets: [String] {
    visitTargetResults.filter { !Self.judged($0.result) }.map(\.what)
      + ingests.filter { $0.result.rows > 0 && !Self.judged($0.result) }.map(\.what)
  }

  /// The strategies that ran and have a target, with its name and minimum, in
  /// `visitTargets`' order (as `ingests` for the two logs).
  var visitTargetResults: [(what: String, result: StrategyResult, minimum: Double)] {
    Self.visitTargets.compactMap { name, minimum in
      strategies.first { $0.name == name }.map { ("\(name) visits/s", $0, minimum) }
    }
  }

  /// The two ingest measurements with their target names and minimums, in report order.
  var ingests: [(what: String, result: IngestResult, minimum: Double)] {
    [("CSV ingest MB/s", csv, Self.csvTarget), ("JSON Lines ingest MB/s", jsonl, Self.jsonlTarget)]
  }

  /// The targets that apply to what ran and are judged: strategies with default
  /// parameters, from a pass of at least `strategyJudgedVisits`, and ingest from a log of
  /// at least `ingestJudgedBytes`.
  public var targets: [TargetCheck] {
    var checks: [TargetCheck] = []
    for (what, s, minimum) in visitTargetResults where Self.judged(s) {
      checks.append(TargetCheck(what: what, minimum: minimum, measured: visitsPerSecond(s)))
    }
    for (what, result, minimum) in ingests where result.rows > 0 && Self.judged(result) {
      checks.append(TargetCheck(what: what, minimum: minimum, measured: result.megabytesPerSecond))
    }
    return checks
  }
}

// MARK: - Output

extension BenchReport {
  static func megabytes(_ bytes: Int?) -> JSONValue {
    bytes.map { .number(NumberFormat.rounded(Double($0) / 1_000_000, decimals: 1)) } ?? .null
  }

  /// The report as one JSON object (keys in a fixed order; see `docs/performance.md`).
  public var json: JSONValue {
    let w = workload
    var strategyMembers: [JSONMember] = []
    for s in strategies {
      strategyMembers.append(
        JSONMember(
          s.name,
          [
            "visits_per_s": .number(NumberFormat.rounded(visitsPerSecond(s), decimals: 0)),
            "events_per_s": .number(NumberFormat.rounded(eventsPerSecond(s), decimals: 0)),
            "ns_per_decision": .number(NumberFormat.rounded(nanosecondsPerDecision(s), decimals: 1)),
            "seconds": .number(NumberFormat.rounded(s.seconds, decimals: 4)),
            "cpu_seconds": .number(NumberFormat.rounded(s.cpuSeconds, decimals: 4)),
            "hit_rate": .number(NumberFormat.rounded(s.hitRate, decimals: 6)),
            "reused_fraction": .number(NumberFormat.rounded(s.reusedFraction, decimals: 4)),
          ]))
    }
    let missed = targets.filter { !$0.met }.map { JSONNode(.string($0.what)) }
    return [
      "build": .string(build),
      "machine": [
        "cpu": .string(machine.cpu), "cores": .number(Double(machine.cores)),
        "cores_allowed": .number(Double(machine.coresAllowed)),
      ],
      "workload": [
        "people": .number(Double(w.people)), "days": .number(Double(w.days)),
        "visits_per_day": .number(Double(w.visitsPerDay)),
        "donations_per_day": .number(Double(w.donationsPerDay)),
        "stack_size": .number(Double(w.stackSize)), "relevance": .bool(w.relevance),
        "entries_per_instance_per_day": .number(Double(w.entriesPerInstancePerDay)),
        "horizon_s": .number(Double(w.horizonSeconds)),
        "ingest_rows": .number(Double(w.ingestRows)), "seed": .number(Double(w.seed)),
        "quick": .bool(quick), "repetitions": .number(Double(repetitions)),
      ],
      "visits": .number(Double(visits)),
      "donations": .number(Double(donations)),
      "entries": .number(Double(entries)),
      "events": .number(Double(events)),
      "generation_s": .number(NumberFormat.rounded(generationSeconds, decimals: 4)),
      "ingest_rows_per_s": .number(NumberFormat.rounded(csv.rowsPerSecond, decimals: 0)),
      "ingest_mb_per_s": .number(NumberFormat.rounded(csv.megabytesPerSecond, decimals: 2)),
      "ingest_mb": .number(NumberFormat.rounded(Double(csv.bytes) / 1_000_000, decimals: 2)),
      "ingest_seconds": .number(NumberFormat.rounded(csv.seconds, decimals: 4)),
      "ingest_cpu_seconds": .number(NumberFormat.rounded(csv.cpuSeconds, decimals: 4)),
      "ingest_jsonl_rows_per_s": .number(NumberFormat.rounded(jsonl.rowsPerSecond, decimals: 0)),
      "ingest_jsonl_mb_per_s": .number(NumberFormat.rounded(jsonl.megabytesPerSecond, decimals: 2)),
      "ingest_jsonl_mb": .number(NumberFormat.rounded(Double(jsonl.bytes) / 1_000_000, decimals: 2)),
      "ingest_jsonl_seconds": .number(NumberFormat.rounded(jsonl.seconds, decimals: 4)),
      "ingest_jsonl_cpu_seconds": .number(NumberFormat.rounded(jsonl.cpuSeconds, decimals: 4)),
      "peak_rss_mb": Self.megabytes(peakRSSBytes),
      "simulation_peak_rss_mb": Self.megabytes(simulationPeakRSSBytes),
      "strategies": .object(strategyMembers),
      "missed_targets": .array(missed),
      "unjudged_targets": .array(unjudgedTargets.map { JSONNode(.string($0)) }),
    ]
  }

  /// A readable report: the workload, one line per strategy, ingest, memory, and each
  /// target met or missed.
  public var text: String {
    func fixed(_ x: Double, _ d: Int) -> String { NumberFormat.format(x, decimals: d) }
    func millions(_ x: Double) -> String { fixed(x / 1e6, 2) + " M" }
    func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
      let fill = String(repeating: " ", count: max(0, width - s.count))
      return right ? fill + s : s + fill
    }
    let w = workload
    var out = "smartstack bench (\(build) build\(build == "debug" ? ": numbers are several times slower than release" : ""))\n"
    out += "machine: \(machine.cpu), \(machine.coresAllowed) of \(machine.cores) core(s) allowed\n"
    out +=
      "workload\(quick ? " (quick)" : ""): \(w.people) people x \(w.days) days, ~\(w.visitsPerDay) visits and ~\(w.donationsPerDay) donations per person-day, "
      + "stack of \(w.stackSize), relevance timelines \(w.relevance ? "on" : "off"), seed \(w.seed); best of \(repetitions)\n"
    out +=
      "events per strategy: \(visits) visits, \(donations) donations, \(entries) relevance entries; "
      + "generating them took \(fixed(generationSeconds, 3)) s (excluded)\n\n"
    let nameWidth = max(16, (strategies.map(\.name.count).max() ?? 0) + 2)
    out += pad("strategy", nameWidth) + pad("visits/s", 12, right: true) + pad("events/s", 12, right: true)
    out += pad("ns/decision", 13, right: true) + pad("hit rate", 10, right: true) + pad("reused", 8, right: true)
    out += "  target\n"
    for s in strategies {
      var line = pad(s.name, nameWidth) + pad(millions(visitsPerSecond(s)), 12, right: true)
      line += pad(millions(eventsPerSecond(s)), 12, right: true)
      line += pad(fixed(nanosecondsPerDecision(s), 1), 13, right: true)
      line += pad(fixed(s.hitRate, 4), 10, right: true)
      line += pad(fixed(s.reusedFraction * 100, 0) + " %", 8, right: true)
      if let (_, _, minimum) = visitTargetResults.first(where: { $0.result.name == s.name }) {
        line +=
          "  >= \(millions(minimum)): "
          + (!Self.judged(s)
            ? "not judged (a pass under \(Self.strategyJudgedVisits) visits is too short to time)"
            : visitsPerSecond(s) >= minimum ? "met" : "MISSED")
      }
      out += line + "\n"
    }
    out += "\n"
    for (name, r, target) in [("CSV", csv, Self.csvTarget), ("JSON Lines", jsonl, Self.jsonlTarget)] where r.rows > 0 {
      out +=
        "ingest \(name): \(r.rows) rows, \(fixed(Double(r.bytes) / 1e6, 1)) MB in \(fixed(r.seconds, 3)) s: "
        + "\(millions(r.rowsPerSecond)) rows/s, \(fixed(r.megabytesPerSecond, 1)) MB/s"
        + "  >= \(fixed(target, 0)) MB/s: "
        + (!Self.judged(r)
          ? "not judged (a read under \(Self.ingestJudgedBytes / 1_000_000) MB is too short to "
            + "time)"
          : r.megabytesPerSecond >= target ? "met" : "MISSED") + "\n"
    }
    func mb(_ b: Int?) -> String { b.map { fixed(Double($0) / 1e6, 1) + " MB" } ?? "unknown" }
    out += "peak RSS: \(mb(peakRSSBytes)) (after the simulation, before ingest: \(mb(simulationPeakRSSBytes)))\n"
    let missed = targets.filter { !$0.met }
    out +=
      missed.isEmpty
      ? "all \(unjudgedTargets.isEmpty ? "" : "judged ")targets met\n"
      : "targets missed: " + missed.map(\.what).joined(separator: ", ") + "\n"
    if !unjudgedTargets.isEmpty {
      out += "not judged: " + unjudgedTargets.joined(separator: ", ") + "\n"
    }
    return out
  }
}
