import SmartStackBase
import SmartStackData
import SmartStackEngine

/// One watched top-percentile relevance window of a person's run, once it closed.
public struct WatchedWindow: Sendable, Hashable, CustomStringConvertible {
  /// The instance whose window it was.
  public var instance: Int32
  /// The window's start, epoch ms (`OutcomeObserver.windowReachedThreshold`).
  public var start: Int64
  /// Scored visits while the window was watched at which the instance was a candidate.
  public var visits: Int
  /// Milliseconds from `start` to the first of those visits that showed the instance;
  /// nil when none did.
  public var surfacedAfter: Int64?
  @inlinable public init(instance: Int32, start: Int64, visits: Int, surfacedAfter: Int64?) {
    self.instance = instance
    self.start = start
    self.visits = visits
    self.surfacedAfter = surfacedAfter
  }
  /// `instance start visits surfacedAfter` (`-` when not surfaced).
  public var description: String {
    "\(instance) \(start) \(visits) \(surfacedAfter.map(String.init) ?? "-")"
  }
}

/// The watch of top-percentile relevance windows, the time-to-surface metric's state,
/// computed from the engine's stack events (`OutcomeObserver`).
///
/// **Definition.** A window of an instance is *watched* from the first event that tells
/// it is active with a percentile at or above the run's threshold
/// (`windowReachedThreshold`) until it stops being active or a new entry replaces it
/// (`windowEnded`), or the person's run ends. Its `visits` are the scored visits in
/// between (a visit that refreshed the state counts on the side of the refresh: after
/// an opening, before a closing) at which the instance was a candidate; it *surfaced*
/// at the first of those visits that showed it, `surfacedAfter` milliseconds after
/// the window's start. A percentile that falls below the threshold while the window
/// stays active does not end the watch.
///
/// **How, in O(1).** Visits are not counted per window: each instance keeps its candidate
/// visits so far (`before` plus, while a candidate, the person's visits since `since`),
/// and a window's visits are the difference between that count at its close and at its
/// opening. So a visit costs O(1) (the shown instance alone is checked for a first
/// surfacing), an event O(1), and `endPerson` O(n) for n instances.
public struct WindowWatch: Sendable {
  /// One instance's counters.
  @usableFromInline package struct Slot: Sendable {
    /// Start (epoch ms) of the watched window, `Int64.min` when none is.
    @usableFromInline package var start = Int64.min
    /// `candidateVisits` when the watched window opened.
    @usableFromInline package var base = 0
    /// Milliseconds from `start` to the first visit that showed the instance, -1 while
    /// none has.
    @usableFromInline package var surfacedAfter: Int64 = -1
    /// Visits at which the instance was a candidate, up to when it last stopped being one.
    @usableFromInline package var before = 0
    /// `visits` when the instance last became a candidate.
    @usableFromInline package var since = 0
    @usableFromInline package var available = false
    @inlinable package init() {}
  }

  @usableFromInline package var slots: [Slot] = []
  /// Per instance, the watched window's start while it has not surfaced, else
  /// `Int64.min`: all a visit reads (one load).
  @usableFromInline package var unsurfaced: [Int64] = []
  /// The person's scored visits so far.
  @usableFromInline package var visits = 0
  /// How many windows are watched: visits skip the surfacing check while none is.
  @usableFromInline package var watching = 0

  @inlinable public init() {}

  /// Starts a person with `instanceCount` instances, none a candidate, nothing watched.
  @inlinable public mutating func beginPerson(instanceCount: Int) {
    slots = Array(repeating: Slot(), count: instanceCount)
    unsurfaced = Array(repeating: Int64.min, count: instanceCount)
    visits = 0
    watching = 0
  }

  /// Scored visits so far at which instance `i` was a candidate.
  @inline(__always)
  @inlinable package func candidateVisits(_ i: Int) -> Int {
    let slot = slots[i]
    return slot.available ? slot.before &+ (visits &- slot.since) : slot.before
  }

  /// `OutcomeObserver.availabilityChanged`.
  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {
    let i = Int(instance)
    if available {
      slots[i].since = visits
    } else {
      slots[i].before &+= visits &- slots[i].since
    }
    slots[i].available = available
  }

  /// `OutcomeObserver.windowReachedThreshold`: starts watching the window unless it is
  /// watched already.
  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    let i = Int(instance)
    guard slots[i].start == Int64.min else { return }
    slots[i].start = start
    slots[i].base = candidateVisits(i)
    slots[i].surfacedAfter = -1
    unsurfaced[i] = start
    watching &+= 1
  }

  /// A scored visit at `time` that showed `shown` (-1: nothing). O(1).
  @inline(__always)
  @inlinable public mutating func visit(shown: Int32, time: Int64) {
    if watching > 0 && shown >= 0 {
      let i = Int(shown)
      let start = unsurfaced[i]
      if start != Int64.min {
        slots[i].surfacedAfter = time &- start
        unsurfaced[i] = Int64.min
      }
    }
    visits &+= 1
  }

  /// `OutcomeObserver.windowEnded`: the watched window of `instance`, now closed, or nil
  /// when it had none.
  @inlinable public mutating func windowEnded(instance: Int32) -> WatchedWindow? {
    let i = Int(instance)
    let slot = slots[i]
    guard slot.start != Int64.min else { return nil }
    slots[i].start = Int64.min
    unsurfaced[i] = Int64.min
    watching &-= 1
    return WatchedWindow(
      instance: instance, start: slot.start, visits: candidateVisits(i) &- slot.base,
      surfacedAfter: slot.surfacedAfter >= 0 ? slot.surfacedAfter : nil)
  }

  /// Closes every window still watched at the end of the person's run; returns them in
  /// instance order. O(n).
  @inlinable public mutating func endPerson() -> [WatchedWindow] {
    var closed: [WatchedWindow] = []
    guard watching > 0 else { return closed }
    for i in 0..<slots.count {
      if let window = windowEnded(instance: Int32(truncatingIfNeeded: i)) { closed.append(window) }
    }
    return closed
  }
}

/// An observer that records every watched window of a run (`WindowWatch`), in the order
/// they closed: for tests, the conformance checker and a user's own analysis.
///
/// Memory: O(windows); per visit O(1).
public struct WindowRecorder: OutcomeObserver {
  /// The closed windows, with the person whose they were, in closing order.
  public var windows: [(person: Int32, window: WatchedWindow)] = []
  @usableFromInline package var watch = WindowWatch()
  @usableFromInline package var person: Int32 = -1
  @inlinable public init() {}
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    self.person = person
    watch.beginPerson(instanceCount: instances.count)
  }
  @inlinable public mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    watch.visit(shown: outcome.shown, time: outcome.time)
  }
  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {
    watch.availabilityChanged(instance: instance, available: available)
  }
  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    watch.windowReachedThreshold(instance: instance, start: start)
  }
  @inlinable public mutating func windowEnded(instance: Int32) {
    if let window = watch.windowEnded(instance: instance) { windows.append((person, window)) }
  }
  @inlinable public mutating func endPerson(_ person: Int32) {
    for window in watch.endPerson() { windows.append((person, window)) }
  }
}
