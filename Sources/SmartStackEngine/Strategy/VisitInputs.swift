import SmartStackBase
import SmartStackData

/// What a pure or instance-scoring strategy's scores may read besides the candidates,
/// the stack's manual order and the strategy's own state: the `reads` it declares.
///
/// A `VisitView` or `InstanceView` lets a strategy read an input only when its `reads`
/// contain it: reading any other traps, naming the strategy and the input. So a
/// declaration can be too wide (the engine then reuses less), never too narrow. The
/// engine reuses the last decision while every declared input, the candidates and the
/// strategy's state (`==`) are as they were when it was made.
public struct VisitInputs: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32
  @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Donation features: counts, last donation times, per-hour counts, and, in a
  /// `VisitView`, `totalDonations` and `lastDonatedInstance`.
  @inlinable public static var donations: VisitInputs { VisitInputs(rawValue: 1 << 0) }
  /// Relevance states and normalised percentiles.
  @inlinable public static var relevance: VisitInputs { VisitInputs(rawValue: 1 << 1) }
  /// The instance shown before the visit (`shown`, `shownSince`; `isShown`).
  @inlinable public static var shown: VisitInputs { VisitInputs(rawValue: 1 << 2) }
  /// The visit's local hour of day.
  @inlinable public static var hourOfDay: VisitInputs { VisitInputs(rawValue: 1 << 3) }
  /// The visit's local hour of week.
  @inlinable public static var hourOfWeek: VisitInputs { VisitInputs(rawValue: 1 << 4) }
  /// The visit's local day index.
  @inlinable public static var dayIndex: VisitInputs { VisitInputs(rawValue: 1 << 5) }
  /// The visit's instant (`now`): it changes at every visit, so nothing is reused.
  @inlinable public static var now: VisitInputs { VisitInputs(rawValue: 1 << 6) }
  /// The latest outside score of each instance (`StackFeatures.outsideScore`).
  @inlinable public static var outsideScores: VisitInputs { VisitInputs(rawValue: 1 << 7) }
  /// Everything.
  @inlinable public static var all: VisitInputs {
    [.donations, .relevance, .shown, .hourOfDay, .hourOfWeek, .dayIndex, .now, .outsideScores]
  }

  /// `strategy` read `input` (named `name`) without declaring it: traps, unless a
  /// checker passed `recorder` (`StrategyConformance`), which then collects the input
  /// and the read goes on, so a strategy author's mistake fails one test instead of
  /// killing the test process.
  @usableFromInline @inline(never)
  static package func undeclared(
    _ input: VisitInputs, _ name: StaticString, by strategy: any RankingStrategy.Type,
    recorder: UnsafeMutablePointer<VisitInputs>?
  ) {
    guard let recorder else {
      preconditionFailure(
        "strategy '\(strategy.name)' read \(name) without declaring it in `reads`; add it there")
    }
    recorder.pointee.formUnion(input)
  }

  /// The inputs' names as the views spell them (`.donations`, …), in declaration order.
  public var names: [String] {
    let all: [(VisitInputs, String)] = [
      (.donations, ".donations"), (.relevance, ".relevance"), (.shown, ".shown"), (.hourOfDay, ".hourOfDay"),
      (.hourOfWeek, ".hourOfWeek"), (.dayIndex, ".dayIndex"), (.now, ".now"), (.outsideScores, ".outsideScores"),
    ]
    return all.filter { contains($0.0) }.map(\.1)
  }
}

/// What a `PureRankingStrategy` sees at a visit: the context, with each input readable
/// only when the strategy declared it (`VisitInputs`).
///
/// Instance indices run over `0..<instanceCount` in the stack's manual order. A view
/// reads the engine's feature arrays in place and is valid only during the
/// `PureRankingStrategy.scores` call it is passed to (it cannot be kept: `scores` does
/// not mutate the strategy).
///
/// Its buffers are the engine's arrays, borrowed for that call: `instanceCount`
/// elements each (`instanceCount × 24` and `× 168` for the hour counts). Precondition of
/// every accessor: `0 <= i < instanceCount` and the hour within its range; the reads
/// are checked only in debug builds (an `UnsafeBufferPointer` subscript), so a
/// release build does not catch an index outside.
public struct VisitView {
  @usableFromInline package let reads: VisitInputs
  @usableFromInline package let strategy: any RankingStrategy.Type
  @usableFromInline package let clock: (now: Int64, hourOfDay: Int, hourOfWeek: Int, dayIndex: Int64)
  @usableFromInline package let top: (shown: Int32, since: Int64)
  @usableFromInline package let totals: (donations: Int, lastDonatedInstance: Int32)
  @usableFromInline package let available: UnsafeBufferPointer<Bool>
  @usableFromInline package let donationCounts: UnsafeBufferPointer<Int32>
  @usableFromInline package let lastDonations: UnsafeBufferPointer<Int64>
  @usableFromInline package let byHourOfDay: UnsafeBufferPointer<Int32>
  @usableFromInline package let byHourOfWeek: UnsafeBufferPointer<Int32>
  @usableFromInline package let states: UnsafeBufferPointer<RelevanceState>
  @usableFromInline package let kinds: UnsafeBufferPointer<RelevanceState.Kind>
  @usableFromInline package let percentiles: UnsafeBufferPointer<Double>
  @usableFromInline package let outsideScores: UnsafeBufferPointer<Double>
  /// Where a checker collects undeclared reads (`VisitInputs.undeclared`); nil in the
  /// engine: such a read traps.
  @usableFromInline package var recorder: UnsafeMutablePointer<VisitInputs>? = nil
  /// The memberwise initialiser, for the engine's inlinable code.
  @inlinable package init(reads: VisitInputs, strategy: any RankingStrategy.Type, clock: (now: Int64, hourOfDay: Int, hourOfWeek: Int, dayIndex: Int64), top: (shown: Int32, since: Int64), totals: (donations: Int, lastDonatedInstance: Int32), available: UnsafeBufferPointer<Bool>, donationCounts: UnsafeBufferPointer<Int32>, lastDonations: UnsafeBufferPointer<Int64>, byHourOfDay: UnsafeBufferPointer<Int32>, byHourOfWeek: UnsafeBufferPointer<Int32>, states: UnsafeBufferPointer<RelevanceState>, kinds: UnsafeBufferPointer<RelevanceState.Kind>, percentiles: UnsafeBufferPointer<Double>, outsideScores: UnsafeBufferPointer<Double>) {
    self.reads = reads
    self.strategy = strategy
    self.clock = clock
    self.top = top
    self.totals = totals
    self.available = available
    self.donationCounts = donationCounts
    self.lastDonations = lastDonations
    self.byHourOfDay = byHourOfDay
    self.byHourOfWeek = byHourOfWeek
    self.states = states
    self.kinds = kinds
    self.percentiles = percentiles
    self.outsideScores = outsideScores
  }

  @inlinable @inline(__always)
  package func require(_ input: VisitInputs, _ name: StaticString) {
    if _slowPath(!reads.contains(input)) { VisitInputs.undeclared(input, name, by: strategy, recorder: recorder) }
  }

  /// Number of instances in the stack.
  @inlinable public var instanceCount: Int { available.count }
  /// True when instance `i` can be shown at this visit (always readable).
  @inlinable public func isCandidate(_ i: Int) -> Bool { available[i] }

  /// The visit's instant, epoch ms (`.now`).
  @inlinable public var now: Int64 { require(.now, ".now"); return clock.now }
  /// Local hour of day, 0...23 (`.hourOfDay`).
  @inlinable public var hourOfDay: Int { require(.hourOfDay, ".hourOfDay"); return clock.hourOfDay }
  /// Local hour of week, 0...167, Monday 00h = 0 (`.hourOfWeek`).
  @inlinable public var hourOfWeek: Int { require(.hourOfWeek, ".hourOfWeek"); return clock.hourOfWeek }
  /// Local day index, days since 1970-01-01 (`.dayIndex`).
  @inlinable public var dayIndex: Int64 { require(.dayIndex, ".dayIndex"); return clock.dayIndex }
  /// The instance shown before the visit, or -1 (`.shown`).
  @inlinable public var shown: Int32 { require(.shown, ".shown"); return top.shown }
  /// When `shown` became the top, epoch ms, or `Int64.min` (`.shown`).
  @inlinable public var shownSince: Int64 { require(.shown, ".shown"); return top.since }

  /// Donations matched to instance `i` so far (`.donations`).
  @inlinable public func donationCount(_ i: Int) -> Int32 { require(.donations, ".donations"); return donationCounts[i] }
  /// Time of instance `i`'s latest matched donation (epoch ms), or `Int64.min` (`.donations`).
  @inlinable public func lastDonation(_ i: Int) -> Int64 { require(.donations, ".donations"); return lastDonations[i] }
  /// Donations matched to instance `i` in local hour of day `hour` (`.donations`).
  @inlinable public func donations(_ i: Int, inHourOfDay hour: Int) -> Int32 {
    require(.donations, ".donations"); return byHourOfDay[i &* 24 &+ hour]
  }
  /// Donations matched to instance `i` in local hour of week `hour` (`.donations`).
  @inlinable public func donations(_ i: Int, inHourOfWeek hour: Int) -> Int32 {
    require(.donations, ".donations"); return byHourOfWeek[i &* 168 &+ hour]
  }
  /// All donations of the person so far, matched or not (`.donations`).
  @inlinable public var totalDonations: Int { require(.donations, ".donations"); return totals.donations }
  /// The instance matched by the latest donation, or -1 (`.donations`).
  @inlinable public var lastDonatedInstance: Int32 {
    require(.donations, ".donations"); return totals.lastDonatedInstance
  }

  /// Relevance state of instance `i` (`.relevance`).
  @inlinable public func relevance(_ i: Int) -> RelevanceState { require(.relevance, ".relevance"); return states[i] }
  /// Normalised percentile of instance `i`'s window score, or NaN (`.relevance`).
  @inlinable public func percentile(_ i: Int) -> Double { require(.relevance, ".relevance"); return percentiles[i] }
  /// The latest outside score of instance `i`, `-infinity` before its first
  /// (`.outsideScores`; `StackFeatures.outsideScore`).
  @inlinable public func outsideScore(_ i: Int) -> Double {
    require(.outsideScores, ".outsideScores"); return outsideScores[i]
  }
}

extension StackContext {
  /// Calls `body` with the visit's view, over the feature arrays in place (no copies,
  /// no reference counting).
  @inline(__always)
  @inlinable package func withVisitView<R>(
    reads: VisitInputs, strategy: any RankingStrategy.Type, recorder: UnsafeMutablePointer<VisitInputs>? = nil,
    _ body: (VisitView) -> R
  ) -> R {
    let f = features
    return f.available.withUnsafeBufferPointer { available in
      f.donationCount.withUnsafeBufferPointer { counts in
        f.lastDonation.withUnsafeBufferPointer { last in
          f.hourOfDayCount.withUnsafeBufferPointer { byHourOfDay in
            f.hourOfWeekCount.withUnsafeBufferPointer { byHourOfWeek in
              f.relevance.withUnsafeBufferPointer { states in
                f.relevanceKind.withUnsafeBufferPointer { kinds in
                  f.percentile.withUnsafeBufferPointer { percentiles in
                    f.outsideScore.withUnsafeBufferPointer { outsideScores in
                      var view = VisitView(
                        reads: reads, strategy: strategy, clock: (now, hourOfDay, hourOfWeek, dayIndex),
                        top: (shown, shownSince), totals: (f.totalDonations, f.lastDonatedInstance),
                        available: available, donationCounts: counts, lastDonations: last,
                        byHourOfDay: byHourOfDay, byHourOfWeek: byHourOfWeek, states: states, kinds: kinds,
                        percentiles: percentiles, outsideScores: outsideScores)
                      view.recorder = recorder
                      return body(view)
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

/// What an `InstanceScoringStrategy` sees when it scores one instance: that instance's
/// own features and the visit's clock, each readable only when declared (`VisitInputs`).
///
/// A view holds copies of the values (no references), read once when the engine
/// builds it; so it costs no reference counting however many instances are scored.
public struct InstanceView: Sendable {
  /// The instance's position in the stack's manual order (always readable).
  public let index: Int
  @usableFromInline package let reads: VisitInputs
  @usableFromInline package let strategy: any RankingStrategy.Type
  @usableFromInline package let clock: (now: Int64, hourOfDay: Int, hourOfWeek: Int, dayIndex: Int64)
  @usableFromInline package let shown: Bool
  @usableFromInline package let donationValues: (count: Int32, last: Int64, thisHourOfDay: Int32, thisHourOfWeek: Int32)
  @usableFromInline package let relevanceValues: (state: RelevanceState, kind: RelevanceState.Kind, percentile: Double)
  @usableFromInline package let outsideScoreValue: Double
  /// Where a checker collects undeclared reads (`VisitInputs.undeclared`); nil in the
  /// engine: such a read traps. Only `StrategyConformance` sets it, for a view it uses
  /// on its own thread while the pointee lives.
  @usableFromInline nonisolated(unsafe) package var recorder: UnsafeMutablePointer<VisitInputs>? = nil

  @inlinable @inline(__always)
  package init(
    index: Int, reads: VisitInputs, strategy: any RankingStrategy.Type,
    clock: (now: Int64, hourOfDay: Int, hourOfWeek: Int, dayIndex: Int64), shown: Bool,
    donations: (count: Int32, last: Int64, thisHourOfDay: Int32, thisHourOfWeek: Int32),
    relevance: (state: RelevanceState, kind: RelevanceState.Kind, percentile: Double), outsideScore: Double
  ) {
    self.index = index
    self.reads = reads
    self.strategy = strategy
    self.clock = clock
    self.shown = shown
    donationValues = donations
    relevanceValues = relevance
    outsideScoreValue = outsideScore
  }

  @inlinable @inline(__always)
  package func require(_ input: VisitInputs, _ name: StaticString) {
    if _slowPath(!reads.contains(input)) { VisitInputs.undeclared(input, name, by: strategy, recorder: recorder) }
  }

  /// The visit's instant, epoch ms (`.now`).
  @inlinable public var now: Int64 { require(.now, ".now"); return clock.now }
  /// Local hour of day of the visit, 0...23 (`.hourOfDay`).
  @inlinable public var hourOfDay: Int { require(.hourOfDay, ".hourOfDay"); return clock.hourOfDay }
  /// Local hour of week of the visit, 0...167 (`.hourOfWeek`).
  @inlinable public var hourOfWeek: Int { require(.hourOfWeek, ".hourOfWeek"); return clock.hourOfWeek }
  /// Local day index of the visit (`.dayIndex`).
  @inlinable public var dayIndex: Int64 { require(.dayIndex, ".dayIndex"); return clock.dayIndex }
  /// True when this instance was on top before the visit (`.shown`).
  @inlinable public var isShown: Bool { require(.shown, ".shown"); return shown }

  /// Donations matched to this instance so far (`.donations`).
  @inlinable public var donationCount: Int32 { require(.donations, ".donations"); return donationValues.count }
  /// Time of this instance's latest matched donation (epoch ms), or `Int64.min` (`.donations`).
  @inlinable public var lastDonation: Int64 { require(.donations, ".donations"); return donationValues.last }
  /// Donations matched to this instance in the visit's local hour of day (`.donations`
  /// and `.hourOfDay`).
  @inlinable public var donationsThisHourOfDay: Int32 {
    require(.donations, ".donations")
    require(.hourOfDay, ".hourOfDay")
    return donationValues.thisHourOfDay
  }
  /// Donations matched to this instance in the visit's local hour of week (`.donations`
  /// and `.hourOfWeek`).
  @inlinable public var donationsThisHourOfWeek: Int32 {
    require(.donations, ".donations")
    require(.hourOfWeek, ".hourOfWeek")
    return donationValues.thisHourOfWeek
  }

  /// This instance's relevance state (`.relevance`).
  @inlinable public var relevance: RelevanceState { require(.relevance, ".relevance"); return relevanceValues.state }
  /// This instance's relevance state without its score (`.relevance`).
  @inlinable public var relevanceKind: RelevanceState.Kind {
    require(.relevance, ".relevance"); return relevanceValues.kind
  }
  /// Normalised percentile of this instance's window score, or NaN (`.relevance`).
  @inlinable public var percentile: Double { require(.relevance, ".relevance"); return relevanceValues.percentile }
  /// This instance's latest outside score, `-infinity` before its first
  /// (`.outsideScores`; `StackFeatures.outsideScore`).
  @inlinable public var outsideScore: Double { require(.outsideScores, ".outsideScores"); return outsideScoreValue }
}

extension StackContext {
  /// Calls `body` with a function that builds instance `i`'s view (`0 <= i <
  /// instanceCount`) from the visit's view (`withVisitView`): no reference counting
  /// per view.
  ///
  /// - Complexity: O(1) plus `body`; each view is O(1).
  @inline(__always)
  @inlinable package func withInstanceViews<R>(
    reads: VisitInputs, strategy: any RankingStrategy.Type, recorder: UnsafeMutablePointer<VisitInputs>? = nil,
    _ body: ((Int) -> InstanceView) -> R
  ) -> R {
    withVisitView(reads: reads, strategy: strategy, recorder: recorder) { v in
      body { i in
        var view = InstanceView(
          index: i, reads: reads, strategy: strategy, clock: v.clock, shown: i == Int(v.top.shown),
          donations: (
            v.donationCounts[i], v.lastDonations[i], v.byHourOfDay[i &* 24 &+ v.clock.hourOfDay],
            v.byHourOfWeek[i &* 168 &+ v.clock.hourOfWeek]
          ),
          relevance: (v.states[i], v.kinds[i], v.percentiles[i]), outsideScore: v.outsideScores[i])
        view.recorder = v.recorder
        return view
      }
    }
  }
}
