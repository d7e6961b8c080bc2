import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Builds the sources of a design: reads every log source's input files with one
/// `LogLoader` (a file used by several sweep points is read and hashed once), and
/// prepares one replay plan per source point.
public enum SourceLoader {
  /// Loads every source point of `design`, in design order.
  ///
  /// With a `budget` (bytes), log points whose plans would not fit it together
  /// (`spilledPoints(_:budget:)`) are read to a spill on disk and replayed in blocks of
  /// people (`SpilledLogSource`, in blocks of `PlanMemory.blockBytes(budget / (2 × jobs))`
  /// on disk, so the `jobs` block plans built at once while it loads, the two held while
  /// its cells run together, or `jobs` cells run alone each holding one, take under half
  /// the budget); the
  /// results are the same bits either way. Without one, every plan is held in memory.
  ///
  /// - Throws: `DiagnosticList` with every problem of every input file (each file's
  ///   reader reports up to its limit) and every option that contradicts its input,
  ///   located at the source in the config. Nothing is run.
  public static func load(_ design: ExperimentDesign, budget: Int? = nil, jobs: Int = 1) throws -> [any ExperimentSource] {
    let spilling = budget.map { spilledPoints(design, budget: $0) } ?? []
    let blockBytes = budget.map { PlanMemory.blockBytes($0 / (2 * max(jobs, 1))) } ?? 0
    var loader = LogLoader()
    var problems: [Diagnostic] = []
    var truncated = false
    var sources: [any ExperimentSource] = []
    // Each input file's last source point read into memory: after it the loader lets go of
    // the file, so a big log read for one point is not held while its plan is built and
    // run, nor while later points are spilled (they read their files again, to disk).
    var lastUse: [String: Int] = [:]
    for (k, spec) in design.sources.enumerated() where !spilling.contains(k) {
      if case .log(let input) = spec.input {
        for file in input.files { lastUse[file.path.resolved] = k }
      }
    }
    for (k, spec) in design.sources.enumerated() {
      do {
        switch spec.input {
        case .log(let input) where spilling.contains(k):
          sources.append(try spilledLogSource(spec, input, loader: &loader, blockBytes: blockBytes, jobs: jobs))
        case .log(let input):
          let done = input.files.map(\.path.resolved).filter { lastUse[$0] == k }
          sources.append(try logSource(spec, input, loader: &loader, forgetting: done))
        case .scenario(let input):
          let source = try ScenarioSupport.makeSource(spec, input)
          if source.scenario.watch == nil, let clues = design.strategies.first(where: { $0.type.info.needs.contains(.watch) }) {
            problems.append(
              spec.location.diagnostic(
                "\(spec.name): strategy '\(clues.type.name)' ranks a watch's cards by their clues, and this is not a watchOS scenario (\"platform\": \"watchOS\")"))
          }
          sources.append(source)
        }
      } catch let list as DiagnosticList {
        for d in list.diagnostics where !problems.contains(d) { problems.append(d) }
        truncated = truncated || list.truncated
      } catch let error as InputFileError {
        problems.append(spec.location.diagnostic(error.description))
      } catch let error as ReplayError {
        problems.append(spec.location.diagnostic("\(spec.name): \(error.description)"))
      }
    }
    if !problems.isEmpty { throw DiagnosticList(problems, truncated: truncated) }
    return sources
  }

  /// About how many bytes `load(_:)` holds for `design`'s log source points at once: a
  /// replay plan each, `PlanMemory.estimatedBytes` of the point's donation log and visit
  /// log files. Scenario points are simulated one person at a time and count 0.
  ///
  /// - Complexity: one `stat` per file of each log point.
  public static func estimatedPlanBytes(_ design: ExperimentDesign) -> Int {
    design.sources.indices.reduce(0) { $0 + estimatedPlanBytes(design.sources[$1]) }
  }

  /// The log points of `design` (indices into `design.sources`) that `load(_:budget:jobs:)`
  /// replays in blocks for `budget`: none when every plan fits half the budget together;
  /// else the largest points (by `PlanMemory.estimatedBytes`, the earlier of equal ones
  /// first) until the others fit it. Trace rows are kept per cell in memory, and a
  /// traced source must be whole (`SpilledLogSource.runTraced`), so a design with the
  /// trace spills nothing.
  public static func spilledPoints(_ design: ExperimentDesign, budget: Int) -> [Int] {
    guard !design.trace else { return [] }
    let estimates = design.sources.map(estimatedPlanBytes)
    var held = estimates.reduce(0, +)
    var spilled: [Int] = []
    for k in estimates.indices.sorted(by: { (estimates[$0], $1) > (estimates[$1], $0) }) {
      guard held > budget / 2, estimates[k] > 0 else { break }
      spilled.append(k)
      held -= estimates[k]
    }
    return spilled.sorted()
  }

  /// The plan estimate of one source point (0 for a scenario).
  static func estimatedPlanBytes(_ spec: SourceSpec) -> Int {
    guard case .log(let input) = spec.input else { return 0 }
    let logs = input.files.filter { $0.role == "log" || $0.role == "visits" }.map(\.path.resolved)
    return PlanMemory.estimatedBytes(inputBytes: PlanMemory.fileBytes(logs))
  }

  /// The source of one log point replayed in blocks of people (`SpilledLogSource`): its
  /// donation log and visit log read to a spill on disk (or the spill of an earlier point
  /// that reads the same files: `LogLoader.spill`), every other file as `logSource` reads it.
  static func spilledLogSource(
    _ spec: SourceSpec, _ input: LogInput, loader: inout LogLoader, blockBytes: Int, jobs: Int
  ) throws -> SpilledLogSource {
    let spilled: SpilledLog
    do {
      spilled = try loader.spill(input, engine: spec.engine)
    } catch let error as UnknownTimeZone {
      throw DiagnosticList([spec.location.diagnostic("unknown time zone '\(error.identifier)'")])
    }
    var source = try SpilledLogSource(
      name: spec.name, spilled: spilled, options: spilled.options, blockBytes: blockBytes, jobs: jobs)
    source.warnings = warnings(spilled.donations.localTimes, log: input.log.resolved, zone: spilled.options.zone)
    source.estimatedPlanBytes = estimatedPlanBytes(spec)
    return source
  }

  /// `FILE:LINE:COLUMN: warning: …` for the log's naive local times (`LocalTimeReport`).
  static func warnings(_ localTimes: LocalTimeReport, log: String, zone: ZoneRules) -> [String] {
    localTimes.messages(zone: zone.identifier, zoneGiven: zone.identifier != "UTC").map {
      "\(log):\($0.place.line):\($0.place.column): warning: \($0.text)"
    }
  }

  /// The source of one log point; the files at `forgetting` (resolved paths) are let go of
  /// by the loader once read (`LogLoader.forget`), as no later point reads them. When the
  /// point's visit log is among them, it is read last, as `replay` reads it: the plan takes
  /// its donations, the donation log is let go of (when no later point reads it either),
  /// and only then is the visit log read and spread, so the two are never held at once.
  static func logSource(
    _ spec: SourceSpec, _ input: LogInput, loader: inout LogLoader, forgetting: [String] = []
  ) throws -> LogSource {
    var deferring = false
    if case .file(let visits) = input.visits { deferring = forgetting.contains(visits.resolved) }
    var loaded: LoadedLog
    do {
      loaded = try loader.load(input, engine: spec.engine, deferringVisits: deferring)
    } catch let error as UnknownTimeZone {
      throw DiagnosticList([spec.location.diagnostic("unknown time zone '\(error.identifier)'")])
    }
    for path in forgetting { loader.forget(path) }
    let events = loaded.log.count
    var plan = try ReplayPlan(donationsOf: loaded.log, options: loaded.options)
    loaded.log = DonationLog([])
    // The plan alone holds the visit log's rows then, and lets each chunk go once spread.
    plan.addVisits(try loaded.takeVisits())
    let statistics = SourceStatistics(
      people: plan.people.count, events: events, visits: plan.visitCount,
      first: plan.firstInstant, last: plan.lastInstant, contentHash: loaded.inputs[0].hash, inputs: loaded.inputs)
    var source = LogSource(name: spec.name, plan: plan, statistics: statistics)
    source.warnings = warnings(loaded.localTimes, log: input.log.resolved, zone: loaded.options.zone)
    return source
  }
}
