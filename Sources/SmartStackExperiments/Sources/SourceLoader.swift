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
  /// - Throws: `DiagnosticList` with every problem of every input file (each file's
  ///   reader reports up to its limit) and every option that contradicts its input,
  ///   located at the source in the config. Nothing is run.
  public static func load(_ design: ExperimentDesign) throws -> [any ExperimentSource] {
    var loader = LogLoader()
    var problems: [Diagnostic] = []
    var truncated = false
    var sources: [any ExperimentSource] = []
    // Each input file's last source point: after it the loader lets go of the file, so a
    // big log read for one point is not held while its plan is built and run.
    var lastUse: [String: Int] = [:]
    for (k, spec) in design.sources.enumerated() {
      if case .log(let input) = spec.input {
        for file in input.files { lastUse[file.path.resolved] = k }
      }
    }
    for (k, spec) in design.sources.enumerated() {
      do {
        switch spec.input {
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
  /// replay plan each, about half the size of the point's donation log and visit log files
  /// (`replay`'s measure: the 2.07 GB log and visit log of docs/performance.md peak at
  /// 0.87 GB). A file that cannot be read counts 0 (the loader reports it). Scenario
  /// points are simulated one person at a time and count 0.
  ///
  /// - Complexity: one `stat` per file of each log point.
  public static func estimatedPlanBytes(_ design: ExperimentDesign) -> Int {
    var total = 0
    for spec in design.sources {
      guard case .log(let input) = spec.input else { continue }
      var bytes = 0
      for file in input.files where file.role == "log" || file.role == "visits" {
        let size = try? FileManager.default.attributesOfItem(atPath: file.path.resolved)[.size] as? NSNumber
        bytes += size?.intValue ?? 0
      }
      total += bytes / 2
    }
    return total
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
    let zone = loaded.options.zone
    source.warnings = loaded.localTimes.messages(zone: zone.identifier, zoneGiven: zone.identifier != "UTC").map {
      "\(input.log.resolved):\($0.place.line):\($0.place.column): warning: \($0.text)"
    }
    return source
  }
}
