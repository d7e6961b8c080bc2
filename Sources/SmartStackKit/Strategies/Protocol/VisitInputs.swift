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
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Donation features: counts, last donation times, per-hour counts, and, in a
  /// `VisitView`, `totalDonations` and `lastDonatedInstance`.
  public static let donations = VisitInputs(rawValue: 1 << 0)
  /// Relevance states and normalised percentiles.
  public static let relevance = VisitInputs(rawValue: 1 << 1)
  /// The instance shown before the visit (`shown`, `shownSince`; `isShown`).
  public static let shown = VisitInputs(rawValue: 1 << 2)
  /// The visit's local hour of day.
  public static let hourOfDay = VisitInputs(rawValue: 1 << 3)
  /// The visit's local hour of week.
  public static let hourOfWeek = VisitInputs(rawValue: 1 << 4)
  /// The visit's local day index.
  public static let dayIndex = VisitInputs(rawValue: 1 << 5)
  /// The visit's instant (`now`): it changes at every visit, so nothing is reused.
  public static let now = VisitInputs(rawValue: 1 << 6)
  /// Everything.
  public static let all: VisitInputs = [.donations, .relevance, .shown, .hourOfDay, .hourOfWeek, .dayIndex, .now]

  /// Traps: `strategy` read `input` without declaring it.
  @usableFromInline @inline(never)
  static func undeclared(_ input: StaticString, by strategy: any RankingStrategy.Type) -> Never {
    preconditionFailure(
      "strategy '\(strategy.name)' read \(input) without declaring it in `reads`; add it there")
  }
}

/// What a `PureRankingStrategy` sees at a visit: the context, with each input readable
/// only when the strategy declared it (`VisitInputs`).
///
/// Instance indices run over `0..<instanceCount` in the stack's manual order.
public struct VisitView: Sendable {
  @usableFromInline let context: StackContext
  @usableFromInline let reads: VisitInputs
  @usableFromInline let strategy: any RankingStrategy.Type

  @inlinable
  init(_ context: StackContext, reads: VisitInputs, strategy: any RankingStrategy.Type) {
    self.context = context
    self.reads = reads
    self.strategy = strategy
  }

  @inlinable @inline(__always)
  func require(_ input: VisitInputs, _ name: StaticString) {
    if _slowPath(!reads.contains(input)) { VisitInputs.undeclared(name, by: strategy) }
  }

  /// Number of instances in the stack.
  @inlinable public var instanceCount: Int { context.instanceCount }
  /// True when instance `i` can be shown at this visit (always readable).
  @inlinable public func isCandidate(_ i: Int) -> Bool { context.isCandidate(i) }

  /// The visit's instant, epoch ms (`.now`).
  @inlinable public var now: Int64 { require(.now, ".now"); return context.now }
  /// Local hour of day, 0...23 (`.hourOfDay`).
  @inlinable public var hourOfDay: Int { require(.hourOfDay, ".hourOfDay"); return context.hourOfDay }
  /// Local hour of week, 0...167, Monday 00h = 0 (`.hourOfWeek`).
  @inlinable public var hourOfWeek: Int { require(.hourOfWeek, ".hourOfWeek"); return context.hourOfWeek }
  /// Local day index, days since 1970-01-01 (`.dayIndex`).
  @inlinable public var dayIndex: Int64 { require(.dayIndex, ".dayIndex"); return context.dayIndex }
  /// The instance shown before the visit, or -1 (`.shown`).
  @inlinable public var shown: Int32 { require(.shown, ".shown"); return context.shown }
  /// When `shown` became the top, epoch ms, or `Int64.min` (`.shown`).
  @inlinable public var shownSince: Int64 { require(.shown, ".shown"); return context.shownSince }

  /// Donations matched to instance `i` so far (`.donations`).
  @inlinable public func donationCount(_ i: Int) -> Int32 {
    require(.donations, ".donations"); return context.features.donationCount[i]
  }
  /// Time of instance `i`'s latest matched donation (epoch ms), or `Int64.min` (`.donations`).
  @inlinable public func lastDonation(_ i: Int) -> Int64 {
    require(.donations, ".donations"); return context.features.lastDonation[i]
  }
  /// Donations matched to instance `i` in local hour of day `hour` (`.donations`).
  @inlinable public func donations(_ i: Int, inHourOfDay hour: Int) -> Int32 {
    require(.donations, ".donations"); return context.features.hourOfDayCount[i &* 24 &+ hour]
  }
  /// Donations matched to instance `i` in local hour of week `hour` (`.donations`).
  @inlinable public func donations(_ i: Int, inHourOfWeek hour: Int) -> Int32 {
    require(.donations, ".donations"); return context.features.hourOfWeekCount[i &* 168 &+ hour]
  }
  /// All donations of the person so far, matched or not (`.donations`).
  @inlinable public var totalDonations: Int { require(.donations, ".donations"); return context.features.totalDonations }
  /// The instance matched by the latest donation, or -1 (`.donations`).
  @inlinable public var lastDonatedInstance: Int32 {
    require(.donations, ".donations"); return context.features.lastDonatedInstance
  }

  /// Relevance state of instance `i` (`.relevance`).
  @inlinable public func relevance(_ i: Int) -> RelevanceState {
    require(.relevance, ".relevance"); return context.features.relevance[i]
  }
  /// Normalised percentile of instance `i`'s window score, or NaN (`.relevance`).
  @inlinable public func percentile(_ i: Int) -> Double {
    require(.relevance, ".relevance"); return context.features.percentile[i]
  }
}

/// What an `InstanceScoringStrategy` sees when it scores one instance: that instance's
/// own features and the visit's clock, each readable only when declared (`VisitInputs`).
public struct InstanceView: Sendable {
  @usableFromInline let context: StackContext
  @usableFromInline let reads: VisitInputs
  @usableFromInline let strategy: any RankingStrategy.Type
  /// The instance's position in the stack's manual order (always readable).
  public let index: Int

  @inlinable
  init(_ context: StackContext, index: Int, reads: VisitInputs, strategy: any RankingStrategy.Type) {
    self.context = context
    self.index = index
    self.reads = reads
    self.strategy = strategy
  }

  @inlinable @inline(__always)
  func require(_ input: VisitInputs, _ name: StaticString) {
    if _slowPath(!reads.contains(input)) { VisitInputs.undeclared(name, by: strategy) }
  }

  /// The visit's instant, epoch ms (`.now`).
  @inlinable public var now: Int64 { require(.now, ".now"); return context.now }
  /// Local hour of day of the visit, 0...23 (`.hourOfDay`).
  @inlinable public var hourOfDay: Int { require(.hourOfDay, ".hourOfDay"); return context.hourOfDay }
  /// Local hour of week of the visit, 0...167 (`.hourOfWeek`).
  @inlinable public var hourOfWeek: Int { require(.hourOfWeek, ".hourOfWeek"); return context.hourOfWeek }
  /// Local day index of the visit (`.dayIndex`).
  @inlinable public var dayIndex: Int64 { require(.dayIndex, ".dayIndex"); return context.dayIndex }
  /// True when this instance was on top before the visit (`.shown`).
  @inlinable public var isShown: Bool { require(.shown, ".shown"); return Int(context.shown) == index }

  /// Donations matched to this instance so far (`.donations`).
  @inlinable public var donationCount: Int32 {
    require(.donations, ".donations"); return context.features.donationCount[index]
  }
  /// Time of this instance's latest matched donation (epoch ms), or `Int64.min` (`.donations`).
  @inlinable public var lastDonation: Int64 {
    require(.donations, ".donations"); return context.features.lastDonation[index]
  }
  /// Donations matched to this instance in local hour of day `hour` (`.donations`).
  @inlinable public func donations(inHourOfDay hour: Int) -> Int32 {
    require(.donations, ".donations"); return context.features.hourOfDayCount[index &* 24 &+ hour]
  }
  /// Donations matched to this instance in local hour of week `hour` (`.donations`).
  @inlinable public func donations(inHourOfWeek hour: Int) -> Int32 {
    require(.donations, ".donations"); return context.features.hourOfWeekCount[index &* 168 &+ hour]
  }

  /// This instance's relevance state (`.relevance`).
  @inlinable public var relevance: RelevanceState {
    require(.relevance, ".relevance"); return context.features.relevance[index]
  }
  /// This instance's relevance state without its score (`.relevance`).
  @inlinable public var relevanceKind: RelevanceState.Kind {
    require(.relevance, ".relevance"); return context.features.relevanceKind[index]
  }
  /// Normalised percentile of this instance's window score, or NaN (`.relevance`).
  @inlinable public var percentile: Double {
    require(.relevance, ".relevance"); return context.features.percentile[index]
  }
}
