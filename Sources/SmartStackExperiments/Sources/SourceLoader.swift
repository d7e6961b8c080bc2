import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Builds the sources of a design: reads every input file once (a log used by several
/// sweep points is read once per time zone and format), hashes it, and prepares one
/// replay plan per source point.
public enum SourceLoader {
  /// Loads every source point of `design`, in design order.
  ///
  /// - Throws: `DiagnosticList` with every problem of every input file (each file's
  ///   reader reports up to its limit) and every option that contradicts its input,
  ///   located at the source in the config. Nothing is run.
  public static func load(_ design: ExperimentDesign) throws -> [any ExperimentSource] {
    var cache = InputCache()
    var problems: [Diagnostic] = []
    var truncated = false
    var sources: [any ExperimentSource] = []
    for spec in design.sources {
      do {
        switch spec.input {
        case .log(let input):
          sources.append(try logSource(spec, input, cache: &cache))
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

  /// Files already read, keyed by what changes their meaning. Only looked up, never
  /// iterated, so the order of a dictionary never reaches an output.
  struct InputCache {
    var bytes: [String: [UInt8]] = [:]
    var logs: [String: DonationLog] = [:]
    var localTimes: [String: LocalTimeReport] = [:]
    var visitLogs: [String: VisitLog] = [:]
    var stacks: [String: StackSpec] = [:]
    var timelines: [String: TimelineFile] = [:]

    mutating func read(_ path: String) throws -> [UInt8] {
      if let bytes = bytes[path] { return bytes }
      let read = try FileIO.readBytes(path)
      bytes[path] = read
      return read
    }
  }

  static func logSource(_ spec: SourceSpec, _ input: LogInput, cache: inout InputCache) throws
    -> LogSource
  {
    guard let zone = ZoneRules(identifier: input.timezone) else {
      throw DiagnosticList([spec.location.diagnostic("unknown time zone '\(input.timezone)'")])
    }
    var inputs: [SourceInput] = []
    let path = input.log.resolved
    let bytes = try cache.read(path)
    let logHash = FNV1a.hexHash(bytes)
    inputs.append(SourceInput(role: "log", path: input.log.written, hash: logHash))
    let logKey = "\(path)\u{0}\(input.format?.rawValue ?? "")\u{0}\(input.timezone)"
    let log: DonationLog
    var localTimes = LocalTimeReport()
    if let cached = cache.logs[logKey] {
      log = cached
      localTimes = cache.localTimes[logKey] ?? LocalTimeReport()
    } else {
      log = try DonationLog.read(
        bytes: bytes, file: path, format: input.format, timeZone: zone, localTimes: &localTimes)
      cache.logs[logKey] = log
      cache.localTimes[logKey] = localTimes
    }

    var options = ReplayOptions()
    options.zone = zone
    options.horizonSeconds = input.horizonSeconds
    options.warmupDays = input.warmupDays
    options.engine = spec.engine
    switch input.visits {
    case .donations: options.visits = .donations
    case .sessions(let minutes): options.visits = .sessions(gapMinutes: minutes)
    case .file(let file):
      let key = "\(file.resolved)\u{0}\(input.timezone)"
      let fileBytes = try cache.read(file.resolved)
      inputs.append(SourceInput(role: "visits", path: file.written, hash: FNV1a.hexHash(fileBytes)))
      if let cached = cache.visitLogs[key] {
        options.visits = .log(cached)
      } else {
        let visits = try VisitLog.read(bytes: fileBytes, file: file.resolved, zone: zone)
        cache.visitLogs[key] = visits
        options.visits = .log(visits)
      }
    }
    switch input.stack {
    case .all: options.stack = .all
    case .top(let n): options.stack = .top(n)
    case .file(let file):
      let fileBytes = try cache.read(file.resolved)
      inputs.append(SourceInput(role: "stack", path: file.written, hash: FNV1a.hexHash(fileBytes)))
      if let cached = cache.stacks[file.resolved] {
        options.stack = .fixed(cached)
      } else {
        let stack = try StackSpec.read(bytes: fileBytes, file: file.resolved)
        cache.stacks[file.resolved] = stack
        options.stack = .fixed(stack)
      }
    }
    if let file = input.timelines {
      let key = "\(file.resolved)\u{0}\(input.timezone)"
      let fileBytes = try cache.read(file.resolved)
      inputs.append(
        SourceInput(role: "timelines", path: file.written, hash: FNV1a.hexHash(fileBytes)))
      if let cached = cache.timelines[key] {
        options.timelines = cached
      } else {
        let timelines = try TimelineFile.read(bytes: fileBytes, file: file.resolved, timeZone: zone)
        cache.timelines[key] = timelines
        options.timelines = timelines
      }
    }
    if let file = input.scores {
      let fileBytes = try cache.read(file.resolved)
      inputs.append(SourceInput(role: "scores", path: file.written, hash: FNV1a.hexHash(fileBytes)))
      options.scores = try ScoreFile.read(bytes: fileBytes, file: file.resolved, zone: zone)
    }
    if let file = input.context {
      let fileBytes = try cache.read(file.resolved)
      inputs.append(SourceInput(role: "context", path: file.written, hash: FNV1a.hexHash(fileBytes)))
      options.context = try ContextLog.read(bytes: fileBytes, file: file.resolved, zone: zone)
    }
    if let point = input.split, let first = log.timestamps.min(), let last = log.timestamps.max() {
      do {
        options.scoredWindow = try point.split.window(
          point: point.index, zone: zone, firstDay: zone.dayIndex(at: Instant(milliseconds: first)),
          lastDay: zone.dayIndex(at: Instant(milliseconds: last)))
      } catch {
        throw DiagnosticList([point.location.diagnostic(error.message)])
      }
    }
    let plan = try ReplayPlan(log: log, options: options)
    let statistics = SourceStatistics(
      people: plan.people.count, events: log.count, visits: plan.visitCount,
      first: plan.firstInstant, last: plan.lastInstant, contentHash: logHash, inputs: inputs)
    var source = LogSource(name: spec.name, plan: plan, statistics: statistics)
    source.warnings = localTimes.messages(zone: zone.identifier, zoneGiven: zone.identifier != "UTC").map {
      "\(path):\($0.place.line):\($0.place.column): warning: \($0.text)"
    }
    return source
  }
}
