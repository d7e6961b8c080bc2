import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A simulated world for `smartstack simulate`: when and where it runs, the people, their
/// Smart Stack, and the apps whose widgets are in it.
///
/// Read one with `Scenario.read(path:)` (format: docs/scenario-format.md), then generate
/// person `p` of replicate `r` with `person(_:replicate:seed:days:)`: everything about
/// that person (visits, wants, pre-drawn choices, delivered timeline entries, suggestion
/// windows) depends only on `(seed, r, p)`, never on a ranking strategy, so every
/// strategy faces the same people (common random numbers).
public struct Scenario: Sendable {
  /// The file the scenario came from (for messages).
  public var file: String
  /// A name for outputs (default: `scenario`).
  public var name: String
  /// The first simulated local day, as days since 1970-01-01 on the local wall clock.
  public var startDay: Int64
  /// The number of simulated local days, 1...366.
  public var days: Int
  /// The people's time zone.
  public var zone: ZoneRules
  /// The master seed used when the command line gives none (default 1).
  public var seed: UInt64
  /// The kinds of people, in file order; people are numbered across them in that order.
  public var personas: [Persona]
  /// The stack every person has.
  public var stack: StackSettings
  /// The apps, in file order; `Int32` app indices everywhere index this array.
  public var apps: [ScenarioApp]
  /// The supported parameter combinations of the apps' intents.
  public var catalog: IntentCatalog
  /// The watchOS Smart Stack (`"platform": "watchOS"`), or nil for iPhone. Its cards are
  /// then the stack's instances (`WatchPlatform`).
  public var watch: WatchPlatform?

  /// The longest simulation, in days.
  public static let maximumDays = 366
  /// The largest number of people a scenario may define.
  public static let maximumPeople = 1_000_000

  public init(
    file: String = "scenario.json", name: String = "scenario", startDay: Int64, days: Int,
    zone: ZoneRules = .utc, seed: UInt64 = 1, personas: [Persona], stack: StackSettings,
    apps: [ScenarioApp], catalog: IntentCatalog = IntentCatalog()
  ) {
    self.file = file
    self.name = name
    self.startDay = startDay
    self.days = days
    self.zone = zone
    self.seed = seed
    self.personas = personas
    self.stack = stack
    self.apps = apps
    self.catalog = catalog
  }

  // MARK: - Instances

  /// The widgets in the person's stack, in manual order.
  public var stackInstances: [WidgetInstance] { stack.instances }

  /// Every instance a person's run knows: the stack's, then, when Widget Suggestions are
  /// on, the suggested widget of each app that has one (in app order). Indices into this
  /// array are the instance indices of `SimulatedPerson`.
  public var instances: [WidgetInstance] {
    stack.instances + suggestionApps.compactMap { apps[$0].suggestion?.instance }
  }

  /// The apps whose suggested widgets follow the stack in `instances`: empty when
  /// Widget Suggestions are off.
  public var suggestionApps: [Int] {
    guard stack.widgetSuggestions else { return [] }
    return apps.indices.filter { apps[$0].suggestion != nil }
  }

  /// For each app, the indices (ascending) of the `instances` its donations match.
  ///
  /// - Complexity: O(apps × instances × match cost).
  public func appMatches() -> [[Int32]] {
    let all = instances
    return apps.map { app in
      all.indices.filter { app.matches(all[$0], catalog: catalog) }.map { Int32($0) }
    }
  }

  /// For each of `instances`, the app whose timeline it shows, or -1: the first app (in
  /// file order) with a timeline whose donations match it. The reader rejects scenarios
  /// where two apps with timelines match one instance.
  public func timelineApps() -> [Int32] {
    let all = instances
    return all.map { instance in
      for (a, app) in apps.enumerated() where app.timeline != nil {
        if app.matches(instance, catalog: catalog) { return Int32(a) }
      }
      return -1
    }
  }

  // MARK: - People and time

  /// The number of people: the sum of the personas' counts.
  public var personCount: Int {
    personas.reduce(0) { $0 &+ max(0, $1.count) }
  }

  /// The persona of person `p` (0-based across the personas in file order) and the
  /// person's 1-based number within it, or nil when `p` is out of range.
  public func persona(ofPerson p: Int) -> (persona: Int, number: Int)? {
    guard p >= 0 else { return nil }
    var first = 0
    for (index, persona) in personas.enumerated() {
      if p < first + persona.count { return (index, p - first + 1) }
      first += max(0, persona.count)
    }
    return nil
  }

  /// `persona-k`, e.g. `commuter-3` for the third person of persona `commuter`.
  public func personName(_ p: Int) -> String {
    guard let (persona, number) = persona(ofPerson: p) else { return "person-\(p + 1)" }
    return "\(personas[persona].name)-\(number)"
  }

  /// The first instant of the simulation: local midnight of the start date.
  public var startInstant: Instant { zone.startOfLocalDay(dayIndex: startDay) }

  /// The end (exclusive) of a run of `days` local days (default: the scenario's): local
  /// midnight after the last day.
  public func endInstant(days: Int? = nil) -> Instant {
    zone.startOfLocalDay(dayIndex: startDay &+ Int64(Scenario.clampDays(days ?? self.days)))
  }

  /// `YYYY-MM-DD` of the start date.
  public var startDate: String {
    let (year, month, day) = ISO8601.civil(fromDays: startDay)
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(year)-\(two(month))-\(two(day))"
  }

  /// `days` clamped to 1...`maximumDays`.
  static func clampDays(_ days: Int) -> Int { min(max(days, 1), maximumDays) }
}
