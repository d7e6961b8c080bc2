import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The engine's built-in metric observer: per-person counts, pooled counts, exposure,
/// time-to-surface samples (of the windows `WindowWatch` watches) and per-day counts.
/// See `RunMetrics` for the definitions.
///
/// Memory: O(people + days + windows); per visit O(1).
public struct StandardMetrics: OutcomeObserver {
  /// Counts per person, in the order people were run.
  public var perPerson: [MetricCounts] { _perPerson }
  @usableFromInline package var _perPerson: [MetricCounts] = []
  /// Gini coefficient of each person's exposure counts (visits shown per instance that
  /// was a candidate at least once), in person order; NaN for people without visits.
  public var exposureGini: [Double] { _exposureGini }
  @usableFromInline package var _exposureGini: [Double] = []
  /// Time from a window's start to its first surfacing visit, milliseconds, over all
  /// surfaced windows (unordered until `RunMetrics` sorts them).
  public var timesToSurface: [Int64] { _timesToSurface }
  @usableFromInline package var _timesToSurface: [Int64] = []
  /// Counts per local day index (pooled over people), sorted by day when read through
  /// `RunMetrics.daily`.
  public var days: [Int64: MetricCounts] { _days }
  @usableFromInline package var _days: [Int64: MetricCounts] = [:]
  /// When not nil, every person-day as it is added to `days`, in that order (one entry
  /// per addition, so a day a person comes back to appears twice): a block of people run
  /// for a people-shard (`LogSource.run(_:replicate:seed:people:)`) journals these, and
  /// `merge` adds the blocks' entries in person order, the same floating-point additions
  /// in the same order as one run. Nil (nothing kept) unless set before the run.
  @usableFromInline package var dayLog: [(day: Int64, counts: MetricCounts)]? = nil

  @usableFromInline package var current = MetricCounts()
  @usableFromInline package var currentDay = MetricCounts()
  /// Visits shown per instance, up to the start of the current run of the same shown
  /// instance (`exposedInstance` since visit `exposedSince`): written when the shown
  /// instance changes instead of at every visit.
  @usableFromInline package var exposure: [Int] = []
  @usableFromInline package var exposedInstance: Int32 = -1
  @usableFromInline package var exposedSince = 0
  /// The person's visits so far.
  @usableFromInline package var personVisits = 0
  @usableFromInline package var everCandidate: [Bool] = []
  /// How many of `everCandidate` are true: once all are, visits skip the scan.
  @usableFromInline package var everCandidateCount = 0
  @usableFromInline package var lastDay = Int64.min
  /// The person's local days with a visit so far, and the latest of them: a person's
  /// visits can come back to an earlier local date (per-row offsets across the date
  /// line, rows with and without offsets), and such a day is not a new active day.
  @usableFromInline package var personDays: Set<Int64> = []
  @usableFromInline package var latestDay = Int64.min
  /// The person's top-percentile windows (`windows`, `windowsSurfaced`, `timesToSurface`).
  @usableFromInline package var watch = WindowWatch()

  public init() {}

  /// The metrics for a run of `plan`: a block of a plan (`ReplayPlan.isBlock`) keeps its
  /// person-days (`dayLog`), which `RunMetrics(block:days:)` and `RunMetrics(blocks:)` join.
  @inlinable package init(for plan: ReplayPlan) {
    if plan.isBlock { dayLog = [] }
  }

  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    current = MetricCounts()
    exposure = Array(repeating: 0, count: instances.count)
    exposedInstance = -1
    exposedSince = 0
    personVisits = 0
    everCandidate = Array(repeating: false, count: instances.count)
    everCandidateCount = 0
    lastDay = Int64.min
    personDays.removeAll(keepingCapacity: true)
    latestDay = Int64.min
    currentDay = MetricCounts()
    watch.beginPerson(instanceCount: instances.count)
  }

  /// Adds the finished day's counts to the person's (`current`) and to `days` (one
  /// dictionary update per person-day, not per visit). `current.reciprocalRankSum` is
  /// kept per visit instead (see `observe`), so it is not added again here.
  @inlinable mutating package func flushDay() {
    var day = currentDay
    day.reciprocalRankSum = 0
    current += day
    if currentDay.visits > 0 {
      _days[lastDay, default: MetricCounts()] += currentDay
      dayLog?.append((lastDay, currentDay))
    }
    currentDay = MetricCounts()
  }

  /// Ends the current day and starts `day`, an active person-day unless the person
  /// already had a visit on it (`activeDays` counts distinct local dates per person).
  @inlinable mutating package func beginDay(_ day: Int64) {
    flushDay()
    if day > latestDay {
      latestDay = day
      personDays.insert(day)
      currentDay.activeDays = 1
    } else {
      currentDay.activeDays = personDays.insert(day).inserted ? 1 : 0
    }
    lastDay = day
  }

  /// Counts a visit into the current day; the day's integer counts reach the person's
  /// at the end of the day (the same integer sums), while the reciprocal-rank sum is
  /// added to both per visit, so the person's floating-point sum keeps the visit order.
  /// Counts are added as 0 or 1 rather than behind branches: the outcome fields are
  /// close to random from visit to visit.
  ///
  /// - Complexity: O(1), plus O(n) for n instances until every instance has been a
  ///   candidate at some visit.
  @inline(__always)
  @inlinable public mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    if o.dayIndex != lastDay { beginDay(o.dayIndex) }
    let rank = o.targetRank
    let inStack = o.hasTarget && rank > 0
    currentDay.visits &+= 1
    currentDay.targetVisits &+= o.hasTarget ? 1 : 0
    currentDay.targetsInStack &+= inStack ? 1 : 0
    currentDay.hits &+= (inStack && rank == 1) ? 1 : 0
    currentDay.hitsAt3 &+= (inStack && rank <= 3) ? 1 : 0
    // Cards on screen (the watch; 0 on iPhone, so these stay 0 there).
    let cards = Int(o.cards)
    let onScreen = inStack && rank <= cards
    currentDay.cardsShown &+= cards
    currentDay.anyCardHits &+= onScreen ? 1 : 0
    currentDay.hitPositionSum &+= onScreen ? rank : 0
    // Adding +0.0 leaves a non-negative sum bit for bit unchanged.
    let reciprocal = inStack ? 1.0 / Double(rank) : 0.0
    current.reciprocalRankSum += reciprocal
    currentDay.reciprocalRankSum += reciprocal
    currentDay.rotations &+= o.rotated ? 1 : 0
    var suppressed = false
    if case .suppressed = o.shownState { suppressed = true }
    currentDay.suppressionViolations &+= (o.rotated && suppressed) ? 1 : 0
    currentDay.relevanceVisits &+= o.relevanceCritical ? 1 : 0
    currentDay.relevanceHonoured &+= (o.relevanceCritical && o.relevanceHonoured) ? 1 : 0
    if o.shown != exposedInstance { closeExposure(at: personVisits, next: o.shown) }
    personVisits &+= 1
    watch.visit(shown: o.shown, time: o.time)
    if everCandidateCount < everCandidate.count {
      for i in 0..<everCandidate.count where !everCandidate[i] && features.available[i] {
        everCandidate[i] = true
        everCandidateCount += 1
      }
    }
  }

  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {
    watch.availabilityChanged(instance: instance, available: available)
  }

  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    watch.windowReachedThreshold(instance: instance, start: start)
  }

  @inlinable public mutating func windowEnded(instance: Int32) {
    if let window = watch.windowEnded(instance: instance) { count(window) }
  }

  /// Counts a closed window that had scored visits (`MetricCounts.windows`).
  @inlinable mutating package func count(_ window: WatchedWindow) {
    guard window.visits > 0 else { return }
    current.windows += 1
    if let after = window.surfacedAfter {
      current.windowsSurfaced += 1
      _timesToSurface.append(after)
    }
  }

  /// Credits the visits since `exposedSince` to `exposedInstance` (none when it is -1)
  /// and starts a run of `next` at visit `visit`.
  @inlinable mutating package func closeExposure(at visit: Int, next: Int32) {
    if exposedInstance >= 0 { exposure[Int(exposedInstance)] &+= visit &- exposedSince }
    exposedInstance = next
    exposedSince = visit
  }

  @inlinable public mutating func endPerson(_ person: Int32) {
    for window in watch.endPerson() { count(window) }
    flushDay()
    closeExposure(at: personVisits, next: -1)
    _perPerson.append(current)
    var counts: [Int] = []
    for i in 0..<exposure.count where everCandidate[i] { counts.append(exposure[i]) }
    _exposureGini.append(Gini.coefficient(counts))
  }
}

/// The Gini coefficient of non-negative counts.
public enum Gini {
  /// `G = Σ_i Σ_j |x_i - x_j| / (2 n² mean)`, computed in O(n log n) from the sorted
  /// values as `G = (2 Σ_i i·x_(i)) / (n Σ x) - (n + 1) / n` with 1-based ranks.
  /// 0 when every instance got the same exposure; (n-1)/n when one got all of it.
  /// NaN for no values or a zero total.
  public static func coefficient(_ values: [Int]) -> Double {
    let n = values.count
    let total = values.reduce(0, +)
    guard n > 0, total > 0 else { return .nan }
    let sorted = values.sorted()
    var weighted = 0.0
    for (i, x) in sorted.enumerated() { weighted += Double(i + 1) * Double(x) }
    return 2 * weighted / (Double(n) * Double(total)) - Double(n + 1) / Double(n)
  }
}
