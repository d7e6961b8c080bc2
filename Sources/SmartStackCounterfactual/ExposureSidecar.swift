import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld
import SmartStackExperiments

/// What rule replay needs beside a version-2 exposure log to rebuild each person's
/// world (docs/counterfactual.md, "Rule replay"): the stack's instances and how the
/// apps match them, the stack's rule settings, the zone, each person's suggestion
/// windows and the relevance timelines the stack received. Written beside the log as
/// `NAME.sidecar.json` (`ExposureSidecar+JSON.swift`).
public struct ExposureSidecar: Sendable {
  /// The people's local time zone (hour-of-day and hour-of-week features).
  public var zone: ZoneRules
  /// The stack's rules as the logging stack applied them.
  public var rules: StackRuleSettings
  /// True when suggested widgets were inserted into the stack (`suggestionWindows`).
  public var widgetSuggestions: Bool
  /// Every person's instances: the stack (`0..<stackCount`, in manual order), then the
  /// suggested ones.
  public var instances: [WidgetInstance]
  public var stackCount: Int
  /// The apps in donation-kind order: app `a`'s donations have kind id `a`, and its
  /// wants match the instances `apps[a].instances` (indices into `instances`, ascending).
  public var apps: [(id: String, instances: [Int32])]
  /// Per person, the windows in which a suggested instance was in the stack.
  public var suggestionWindows: [String: [SuggestionWindow]]
  /// The relevance entries the people's stacks received (`user` set per person), nil
  /// when the stack had none.
  public var timelines: TimelineFile?
  /// The people's context changes (`docs/context.md`), nil when the world had none:
  /// targets that read context (`context-mfu`, `context-bandit`) see them as they would
  /// have on-policy, since context does not depend on what is shown.
  public var context: ContextLog?

  public init(
    zone: ZoneRules, rules: StackRuleSettings, widgetSuggestions: Bool, instances: [WidgetInstance],
    stackCount: Int, apps: [(id: String, instances: [Int32])], suggestionWindows: [String: [SuggestionWindow]],
    timelines: TimelineFile?, context: ContextLog? = nil
  ) {
    self.zone = zone
    self.rules = rules
    self.widgetSuggestions = widgetSuggestions
    self.instances = instances
    self.stackCount = stackCount
    self.apps = apps
    self.suggestionWindows = suggestionWindows
    self.timelines = timelines
    self.context = context
  }

  /// The sidecar of a simulated run of `scenario` whose `LogEmitter` recorded the world
  /// (`LogEmitter(recordsWorld: true)`).
  public init(scenario: Scenario, emitter: LogEmitter) {
    var windows: [String: [SuggestionWindow]] = [:]
    for (person, list) in emitter.suggestionWindows { windows[person] = list }
    self.init(
      zone: scenario.zone, rules: scenario.stack.rules, widgetSuggestions: scenario.stack.widgetSuggestions,
      instances: scenario.instances, stackCount: scenario.stackInstances.count,
      apps: zip(scenario.apps.map(\.id), scenario.appMatches()).map { ($0, $1) }, suggestionWindows: windows,
      timelines: emitter.timelines, context: emitter.context.count > 0 ? emitter.context : nil)
  }

  /// Each person of `log` rebuilt as a world to run a target through
  /// (`Simulation`'s loop): the logged visits and wants, the instances, the apps'
  /// matches, the person's relevance entries (in the engine's processing order: by
  /// date, then instance, then file order), context changes and suggestion windows. People are in order
  /// of first appearance in the log; no reaction draws are set (rule replay's responder
  /// decides reactions).
  ///
  /// - Throws: `ReplayError` when a row names an app the sidecar does not know.
  /// - Complexity: O(rows + entries log entries).
  public func people(of log: ExposureLog) throws -> [SimulatedPerson] {
    var appIndex: [String: Int32] = [:]
    for (a, app) in apps.enumerated() { appIndex[app.id] = Int32(a) }
    var instanceIndex: [String: Int32] = [:]
    for (i, instance) in instances.enumerated() { instanceIndex[instance.id] = Int32(i) }
    var rowsOf: [String: [Int]] = [:]
    for (k, e) in log.exposures.enumerated() { rowsOf[e.person, default: []].append(k) }
    var contextRows: [String: [Int]] = [:]
    for (user, rows) in context?.changesByPerson() ?? [] { contextRows[user] = rows }
    var result: [SimulatedPerson] = []
    for (p, name) in log.people.enumerated() {
      let rows = rowsOf[name]!
      let first = log.exposures[rows.first!].time
      let last = log.exposures[rows.last!].time
      var person = SimulatedPerson(
        index: p, name: name, persona: 0, replicate: 0, start: first, end: last &+ 1, instances: instances,
        stackCount: stackCount, apps: [], appMatches: apps.map(\.instances))
      person.visitTimes = rows.map { log.exposures[$0].time }
      person.wantApp = try rows.map { k in
        let app = log.exposures[k].wantApp
        if app.isEmpty { return -1 }
        guard let a = appIndex[app] else {
          throw ReplayError("person '\(name)': want_app '\(app)' is not an app of the sidecar")
        }
        return a
      }
      person.wantSource = Array(repeating: .none, count: rows.count)
      if let timelines {
        var entries: [(instance: Int32, entry: RelevanceEntry, order: Int)] = []
        for timeline in timelines.timelines(ofUser: name).instances {
          guard let i = instanceIndex[timeline.id] else {
            throw ReplayError("timelines: instance '\(timeline.id)' is not an instance of the sidecar")
          }
          for entry in timeline.entries { entries.append((i, entry, entries.count)) }
        }
        entries.sort {
          ($0.entry.date.milliseconds, $0.instance, $0.order) < ($1.entry.date.milliseconds, $1.instance, $1.order)
        }
        person.entryInstance = entries.map(\.instance)
        person.entries = entries.map(\.entry)
      }
      if let context, let rows = contextRows[name] {
        person.context = rows.map { ContextChange(time: context.times[$0], signal: context.signals[$0], value: context.values[$0]) }
      }
      person.suggestionWindows = widgetSuggestions ? suggestionWindows[name] ?? [] : []
      result.append(person)
    }
    return result
  }
}
