import SmartStackBase
import SmartStackData
import SmartStackEngine

/// One simulated person of one replicate: everything the simulation runner needs that
/// does not depend on the ranking strategy (`Scenario.person(_:replicate:seed:days:)`).
///
/// Times are epoch milliseconds. Per-visit arrays (`visitTimes`, `wantApp`,
/// `wantSource`, `tapDraw`, `openDraw`, `swipeDraw`) have one element per visit.
public struct SimulatedPerson: Sendable, Equatable {
  /// The person's index in the scenario (0-based across personas).
  public var index: Int
  /// `persona-k`, e.g. `commuter-3`; the `user` of the person's donations.
  public var name: String
  /// The persona's index in `Scenario.personas`.
  public var persona: Int
  /// The replicate this person was generated for.
  public var replicate: Int
  /// The simulated range `[start, end)`: local midnight of the start date to local
  /// midnight after the last day.
  public var start: Int64
  public var end: Int64

  /// The stack's instances (`0..<stackCount`), then the suggested instances (when
  /// Widget Suggestions are on).
  public var instances: [WidgetInstance]
  /// `instances[0..<stackCount]` are the person's stack, in manual order.
  public var stackCount: Int
  /// The scenario's apps (for donations: `apps[a].donation(at:user:)`).
  public var apps: [ScenarioApp]
  /// App `a` matches `appMatchList[appMatchStart[a] ..< appMatchStart[a + 1]]`
  /// (ascending instance indices); see `instances(matchingApp:)`.
  public var appMatchStart: [Int32]
  public var appMatchList: [Int32]

  /// Home Screen visits, strictly ascending; none while asleep.
  public var visitTimes: [Int64]
  /// Per visit: the wanted app (index into `apps`), or -1 for no want.
  public var wantApp: [Int32]
  /// Per visit: why there is a want (`.none` when `wantApp` is -1).
  public var wantSource: [WantSource]
  /// Per visit: uniforms in [0, 1) that decide, against the persona's `tap`, `open` and
  /// `swipe` probabilities, what the person does (see `wouldTap(visit:)` etc.). Drawn for
  /// every visit, want or not, from their own stream: common random numbers.
  public var tapDraw: [Double]
  public var openDraw: [Double]
  public var swipeDraw: [Double]
  /// The persona's probabilities the draws are compared with.
  public var tapProbability: Double
  public var openProbability: Double
  public var swipeProbability: Double

  /// Timeline entries as delivered to the stack by reloads, in processing order: by
  /// date, then instance, then the intended order. `entryInstance[i]` is the instance
  /// entry `i` belongs to.
  public var entryInstance: [Int32]
  public var entries: [RelevanceEntry]
  /// When suggested instances are in the stack, sorted by start then instance; empty
  /// when Widget Suggestions are off.
  public var suggestionWindows: [SuggestionWindow]
  /// Reload statistics per instance (same indices as `instances`).
  public var reloadCounts: [ReloadCounts]
  /// The relevant events that overlap the run (ground truth behind event wants and
  /// suggestion windows), sorted by start, then app, then end.
  public var events: [RelevantEvent]
  /// The person's context changes (`ContextGenerator`), ascending by time, then signal;
  /// empty when the persona has no context.
  public var context: [ContextChange]

  public init(
    index: Int, name: String, persona: Int, replicate: Int, start: Int64, end: Int64,
    instances: [WidgetInstance], stackCount: Int, apps: [ScenarioApp], appMatches: [[Int32]]
  ) {
    self.index = index
    self.name = name
    self.persona = persona
    self.replicate = replicate
    self.start = start
    self.end = end
    self.instances = instances
    self.stackCount = stackCount
    self.apps = apps
    var starts: [Int32] = [0]
    var list: [Int32] = []
    for matches in appMatches {
      list += matches
      starts.append(Int32(list.count))
    }
    appMatchStart = starts
    appMatchList = list
    visitTimes = []
    wantApp = []
    wantSource = []
    tapDraw = []
    openDraw = []
    swipeDraw = []
    tapProbability = 1
    openProbability = 1
    swipeProbability = 0
    entryInstance = []
    entries = []
    suggestionWindows = []
    reloadCounts = Array(repeating: ReloadCounts(), count: instances.count)
    events = []
    context = []
  }

  /// The number of visits.
  public var visitCount: Int { visitTimes.count }

  /// Reload statistics summed over every instance.
  public var reloads: ReloadCounts { reloadCounts.reduce(ReloadCounts(), +) }

  /// The instances (ascending indices) app `app` matches; empty for -1 or an app
  /// without a widget. O(1).
  @inline(__always)
  @inlinable public func instances(matchingApp app: Int32) -> ArraySlice<Int32> {
    guard app >= 0, Int(app) + 1 < appMatchStart.count else { return [] }
    return appMatchList[Int(appMatchStart[Int(app)])..<Int(appMatchStart[Int(app) + 1])]
  }

  /// The instances the want of visit `v` matches (stack and suggested ones); empty when
  /// the visit has no want or the app has no widget. O(1).
  @inline(__always)
  @inlinable public func wantedInstances(visit v: Int) -> ArraySlice<Int32> {
    instances(matchingApp: wantApp[v])
  }

  /// True when the person taps the shown widget at visit `v` if it is one they want:
  /// `tapDraw[v] < tapProbability`.
  @inline(__always)
  @inlinable public func wouldTap(visit v: Int) -> Bool { tapDraw[v] < tapProbability }

  /// True when the person opens the wanted app by hand at visit `v` if no wanted widget
  /// is shown (and they do not swipe to one): `openDraw[v] < openProbability`.
  @inline(__always)
  @inlinable public func wouldOpen(visit v: Int) -> Bool { openDraw[v] < openProbability }

  /// True when the person swipes to a wanted instance that is in the stack but not on
  /// top at visit `v`: `swipeDraw[v] < swipeProbability`.
  @inline(__always)
  @inlinable public func wouldSwipe(visit v: Int) -> Bool { swipeDraw[v] < swipeProbability }
}
