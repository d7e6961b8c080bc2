import SmartStackBase
import SmartStackData

/// What a strategy sees at one moment of one person's run: the clock, the stack, and
/// features the engine keeps up to date from every event dated `<= now`.
///
/// The context is rebuilt cheaply for each call (it holds arrays by reference-counted
/// copy-on-write storage, so passing it copies nothing). Instance indices run over
/// `0..<instanceCount` in the stack's manual order.
public struct StackContext: Sendable {
  /// The current instant, epoch milliseconds.
  public var now: Int64
  /// Local hour of day of `now` in the person's time zone (0...23).
  public var hourOfDay: Int
  /// Local hour of week of `now` (0...167, Monday 00h = 0).
  public var hourOfWeek: Int
  /// Local day index of `now` (days since 1970-01-01 in the person's zone).
  public var dayIndex: Int64
  /// The shared behavioural and relevance features.
  public var features: StackFeatures
  /// The instance shown on top before this visit, or -1 before the first visit.
  public var shown: Int32
  /// When `shown` became the top (epoch ms), or `Int64.min`.
  public var shownSince: Int64
  /// The instances the visit's target matches. Empty except for strategies with
  /// a `TargetAwareStrategy`, and empty outside visits.
  public var target: ArraySlice<Int32>
  /// The stack's rotations of the last 24 hours before this visit (`RotationHistory`):
  /// e.g. `context.rotations.count(after: context.now - 3_600_000)` is the number in the
  /// last hour.
  @inlinable public var rotations: RotationHistory { _rotations }
  @usableFromInline package var _rotations = RotationHistory()
  /// What the device knows now: place, charging, headphones, workout, sleep, Focus and
  /// the rest (`DeviceContext`); every signal unknown (-1) in runs without context.
  @inlinable public var device: DeviceContext { _device }
  @usableFromInline package var _device = DeviceContext()
  /// The memberwise initialiser, for the engine's inlinable code.
  @inlinable package init(now: Int64, hourOfDay: Int, hourOfWeek: Int, dayIndex: Int64, features: StackFeatures, shown: Int32, shownSince: Int64, target: ArraySlice<Int32>) {
    self.now = now
    self.hourOfDay = hourOfDay
    self.hourOfWeek = hourOfWeek
    self.dayIndex = dayIndex
    self.features = features
    self.shown = shown
    self.shownSince = shownSince
    self.target = target
  }

  @inlinable public var instanceCount: Int { features.instanceCount }

  /// True when instance `i` can be shown at this moment (it is in the stack and, with a
  /// per-person stack built from donations, the person has donated it before).
  @inlinable @inline(__always) public func isCandidate(_ i: Int) -> Bool { features._available[i] }
}

/// Behavioural and relevance features of one person's stack, updated incrementally by
/// the engine. All counts include only events dated `<= now`.
///
/// Memory: O(instances × 168). Every update is O(1) except relevance percentiles
/// (O(log n) in the number of scores the instance has provided).
public struct StackFeatures: Sendable {
  /// Number of instances in the stack.
  public let instanceCount: Int
  /// `available[i]`: instance `i` may be shown (see `StackContext.isCandidate`).
  @inlinable public var available: [Bool] { _available }
  @usableFromInline package var _available: [Bool]
  /// Donations matched to each instance so far.
  @inlinable public var donationCount: [Int32] { _donationCount }
  @usableFromInline package var _donationCount: [Int32]
  /// Time of each instance's most recent matched donation (epoch ms), or `Int64.min`.
  @inlinable public var lastDonation: [Int64] { _lastDonation }
  @usableFromInline package var _lastDonation: [Int64]
  /// Matched donations per instance and local hour of day: index `i * 24 + hour`.
  @inlinable public var hourOfDayCount: [Int32] { _hourOfDayCount }
  @usableFromInline package var _hourOfDayCount: [Int32]
  /// Matched donations per instance and local hour of week: index `i * 168 + hourOfWeek`.
  @inlinable public var hourOfWeekCount: [Int32] { _hourOfWeekCount }
  @usableFromInline package var _hourOfWeekCount: [Int32]
  /// All donations of this person so far, matched or not.
  @inlinable public var totalDonations: Int { _totalDonations }
  @usableFromInline package var _totalDonations: Int
  /// The instance matched by the person's most recent donation, or -1.
  @inlinable public var lastDonatedInstance: Int32 { _lastDonatedInstance }
  @usableFromInline package var _lastDonatedInstance: Int32
  /// Relevance state of each instance at `now` (`.none` without timelines).
  @inlinable public var relevance: [RelevanceState] { _relevance }
  @usableFromInline package var _relevance: [RelevanceState]
  /// `relevance[i].kind`: the same states as one byte each, without their scores (for
  /// table look-ups, see `RelevanceState.Kind`).
  @inlinable public var relevanceKind: [RelevanceState.Kind] { _relevanceKind }
  @usableFromInline package var _relevanceKind: [RelevanceState.Kind]
  /// Normalised relevance of each instance's current window score (mid-rank percentile,
  /// DESIGN.md §4), or NaN when the state is `none` or `expired`.
  @inlinable public var percentile: [Double] { _percentile }
  @usableFromInline package var _percentile: [Double]
  /// The latest outside score of each instance (`--scores`, `ScoreFile`): the value of
  /// the last score event for the instance dated `<= now` (at equal times, the one later
  /// in the file), and `-Double.infinity` before the instance's first (and in runs
  /// without a score file). Score files hold finite numbers only, so `-infinity` means
  /// exactly "no score yet", which ranks below every score (`precedes`).
  @inlinable public var outsideScore: [Double] { _outsideScore }
  @usableFromInline package var _outsideScore: [Double]
  /// Tie-break key: rank of the instance's kind name in byte order among the stack's
  /// kinds, then the instance index (smaller wins).
  public let kindOrder: [Int32]
  public init(instances: [WidgetInstance]) {
    let n = instances.count
    instanceCount = n
    _available = Array(repeating: false, count: n)
    _donationCount = Array(repeating: 0, count: n)
    _lastDonation = Array(repeating: Int64.min, count: n)
    _hourOfDayCount = Array(repeating: 0, count: n * 24)
    _hourOfWeekCount = Array(repeating: 0, count: n * 168)
    _totalDonations = 0
    _lastDonatedInstance = -1
    _relevance = Array(repeating: .none, count: n)
    _relevanceKind = Array(repeating: .none, count: n)
    _percentile = Array(repeating: .nan, count: n)
    _outsideScore = Array(repeating: -Double.infinity, count: n)
    // Byte order of the names, compared in place (a session starts per person: no copies).
    let sortedKinds = instances.indices.sorted {
      let a = instances[$0].kind.utf8
      let b = instances[$1].kind.utf8
      return a.lexicographicallyPrecedes(b) || (a.elementsEqual(b) && $0 < $1)
    }
    var order = Array(repeating: Int32(0), count: n)
    for (rank, i) in sortedKinds.enumerated() { order[i] = Int32(rank) }
    kindOrder = order
  }

  /// Folds one matched donation of instance `i` at local hour `hour`/`hourOfWeek`.
  @inline(__always)
  @inlinable mutating package func recordDonation(instance i: Int, at time: Int64, hourOfDay: Int, hourOfWeek: Int) {
    _donationCount[i] &+= 1
    if time > lastDonation[i] { _lastDonation[i] = time }
    _hourOfDayCount[i &* 24 &+ hourOfDay] &+= 1
    _hourOfWeekCount[i &* 168 &+ hourOfWeek] &+= 1
  }

  /// True when candidate `a` comes before candidate `b` at equal scores: more recent
  /// last donation, then more donations, then kind name, then index.
  @inline(__always)
  @inlinable public func tieBreakPrecedes(_ a: Int, _ b: Int) -> Bool {
    if lastDonation[a] != lastDonation[b] { return lastDonation[a] > lastDonation[b] }
    if donationCount[a] != donationCount[b] { return donationCount[a] > donationCount[b] }
    return kindOrder[a] < kindOrder[b]
  }

  /// True when candidate `a` is ranked before `b` given `scores` (the engine's order).
  @inline(__always)
  @inlinable public func precedes(_ a: Int, _ b: Int, scores: [Double]) -> Bool {
    precedes(a, score: scores[a], b, score: scores[b])
  }

  /// True when candidate `a` with score `scoreA` is ranked before `b` with `scoreB`:
  /// the higher score (NaN counts as minus infinity), then `tieBreakPrecedes`.
  @inline(__always)
  @inlinable public func precedes(_ a: Int, score scoreA: Double, _ b: Int, score scoreB: Double) -> Bool {
    let sa = scoreA.isNaN ? -Double.infinity : scoreA
    let sb = scoreB.isNaN ? -Double.infinity : scoreB
    if sa != sb { return sa > sb }
    return tieBreakPrecedes(a, b)
  }
}
