import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// Runs the reference workload (`BenchWorkload`) and measures the engine and the
/// donation-log readers; `smartstack bench` prints the result.
///
/// **Simulation.** People are generated one at a time (`BenchWorkload.PersonGenerator`);
/// each person is then driven through a fresh `StackSession` per strategy by
/// `Replay.run(_:horizon:session:)`, exactly as replay drives a log (relevance entries,
/// visits, donations and revealed outcomes in time order), with `StandardMetrics` as the
/// observer. Only the engine's work is timed, per person and strategy with a monotonic
/// clock; generating the people is timed separately and excluded. Each strategy
/// runs in a `ReplayLane`, specialised for its type like every run (`StrategyRunner`).
///
/// **Ingest.** The workload's log is generated as CSV, then as JSON Lines, in memory;
/// `DonationLog.read(bytes:file:format:timeZone:limit:)` (parse, validate, intern, sort)
/// is timed on each. Generation is excluded.
///
/// With `repetitions > 1` everything is measured that many times and the fastest time
/// of each measurement is kept.
public enum Bench {
  /// Measures `workload` with `strategies`; `progress` receives a line per phase.
  ///
  /// - Throws: `BenchError` when a generated log does not read back with every row (a
  ///   bug, never expected).
  public static func run(
    _ workload: BenchWorkload, strategies: [StrategyChoice], repetitions: Int = 1,
    progress: (String) -> Void = { _ in }
  ) throws -> BenchReport {
    let repetitions = max(1, repetitions)
    var report = BenchReport(workload: workload, repetitions: repetitions)
    report.strategies = strategies.map { BenchReport.StrategyResult(name: $0.descriptor.label) }

    // Simulation.
    var generator = BenchWorkload.PersonGenerator(workload)
    var person = ReplayPlan.Person(name: "", instances: [], alwaysAvailable: true)
    let clock = ContinuousClock()
    for repetition in 0..<repetitions {
      progress("simulating \(workload.people) people with \(strategies.count) strategies (pass \(repetition + 1) of \(repetitions))")
      var lanes = strategies.map {
        $0.lane(
          ReplayLane.Setup(
            horizon: workload.horizonMilliseconds,
            seed: StreamSeed.derive(workload.seed, 3, StreamSeed.stableHash($0.descriptor.description))))
      }
      var elapsed = [Duration](repeating: .zero, count: lanes.count)
      var cpu = [UInt64](repeating: 0, count: lanes.count)
      var generation = Duration.zero
      var visits = 0
      var donations = 0
      var entries = 0
      for p in 0..<workload.people {
        let start = clock.now
        generator.fill(&person, index: p)
        generation += clock.now - start
        visits += person.visitTimes.count
        donations += person.donationTimes.count
        entries += person.entries.count
        for k in lanes.indices {
          let cpuStart = ThreadCPUTime.nanoseconds()
          let laneStart = clock.now
          lanes[k].run(person, p)
          elapsed[k] += clock.now - laneStart
          cpu[k] &+= ThreadCPUTime.nanoseconds() &- cpuStart
        }
      }
      report.visits = visits
      report.donations = donations
      report.entries = entries
      report.generationSeconds = min(report.generationSeconds, generation.seconds)
      for k in lanes.indices {
        report.strategies[k].seconds = min(report.strategies[k].seconds, elapsed[k].seconds)
        report.strategies[k].cpuSeconds = min(report.strategies[k].cpuSeconds, Double(cpu[k]) * 1e-9)
        let total = lanes[k].totals()
        report.strategies[k].visits = total.visits
        report.strategies[k].hitRate = total.hitRate
        report.strategies[k].reusedDecisions = lanes[k].reusedDecisions()
      }
      lanes.removeAll()
    }
    person = ReplayPlan.Person(name: "", instances: [], alwaysAvailable: true)
    report.simulationPeakRSSBytes = ProcessMemory.peakResidentBytes()

    // Ingest.
    for format in [DonationLogFormat.csv, .jsonl] {
      progress("generating \(workload.ingestRows) \(format.rawValue) rows")
      var bytes = workload.ingestLog(format)
      progress("reading \(bytes.count) bytes of \(format.rawValue) (\(repetitions) time(s))")
      var best = Double.infinity
      var bestCPU = Double.infinity
      for _ in 0..<repetitions {
        let cpuStart = ThreadCPUTime.nanoseconds()
        let start = clock.now
        let log = try DonationLog.read(bytes: bytes, file: "bench." + format.rawValue, format: format, timeZone: .utc)
        let seconds = (clock.now - start).seconds
        bestCPU = min(bestCPU, Double(ThreadCPUTime.nanoseconds() &- cpuStart) * 1e-9)
        guard log.count == workload.ingestRows else {
          throw BenchError("the generated \(format.rawValue) log read back with \(log.count) rows, not \(workload.ingestRows)")
        }
        best = min(best, seconds)
      }
      let result = BenchReport.IngestResult(
        rows: workload.ingestRows, bytes: bytes.count, seconds: best, cpuSeconds: bestCPU)
      if format == .csv { report.csv = result } else { report.jsonl = result }
      bytes = []
    }
    report.peakRSSBytes = ProcessMemory.peakResidentBytes()
    return report
  }
}

/// A problem of the bench itself (not of any input).
public struct BenchError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

