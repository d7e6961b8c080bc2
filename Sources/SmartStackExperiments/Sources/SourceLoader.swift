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
    for spec in design.sources {
      do {
        switch spec.input {
        case .log(let input):
          sources.append(try logSource(spec, input, loader: &loader))
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

  static func logSource(_ spec: SourceSpec, _ input: LogInput, loader: inout LogLoader) throws
    -> LogSource
  {
    let loaded: LoadedLog
    do {
      loaded = try loader.load(input, engine: spec.engine)
    } catch let error as UnknownTimeZone {
      throw DiagnosticList([spec.location.diagnostic("unknown time zone '\(error.identifier)'")])
    }
    let plan = try ReplayPlan(log: loaded.log, options: loaded.options)
    let statistics = SourceStatistics(
      people: plan.people.count, events: loaded.log.count, visits: plan.visitCount,
      first: plan.firstInstant, last: plan.lastInstant, contentHash: loaded.inputs[0].hash, inputs: loaded.inputs)
    var source = LogSource(name: spec.name, plan: plan, statistics: statistics)
    let zone = loaded.options.zone
    source.warnings = loaded.localTimes.messages(zone: zone.identifier, zoneGiven: zone.identifier != "UTC").map {
      "\(input.log.resolved):\($0.place.line):\($0.place.column): warning: \($0.text)"
    }
    return source
  }
}
