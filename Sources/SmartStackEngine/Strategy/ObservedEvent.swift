import SmartStackBase
import SmartStackData

/// What the engine tells a strategy about one person before the first event.
public struct StrategySetup: Sendable {
  /// The instances, in the stack's manual order; instance index = position.
  public var instances: [WidgetInstance]
  /// A seed for the strategy's own randomness, derived from (master seed, replicate,
  /// strategy name, person): the same for every run with the same inputs.
  public var seed: UInt64
  @inlinable public var instanceCount: Int { instances.count }
  public init(instances: [WidgetInstance], seed: UInt64) {
    self.instances = instances
    self.seed = seed
  }
}

/// Something a strategy may learn from, delivered in time order.
public enum ObservedEvent: Sendable {
  /// The person donated an intent; `instances` are the stack instances it matches
  /// (empty when it matches none). `kind` is the donation log's dense kind id.
  case donation(kind: Int32, instances: ArraySlice<Int32>)
  /// A relevance entry for `instance` took effect (its date is `context.now`).
  case relevance(instance: Int32)
  /// An outside model's score for `instance` took effect (`--scores`, `ScoreFile`): its
  /// time is `context.now` and its value is now
  /// `context.features.outsideScore[instance]`. At one instant, scores come after
  /// relevance entries and before visits, donations and outcomes (`EventMerger`), so a
  /// visit sees every score dated `<= now`.
  case score(instance: Int32)
  /// A context signal changed (`--context`, or a scenario's context routine): its time
  /// is `context.now` and its value is now `context.device[signal]`. At one instant,
  /// context changes come after relevance entries and outside scores and before visits,
  /// donations and outcomes (`EventMerger`), so a visit sees every change dated `<= now`.
  case context(signal: ContextSignal)
}

/// The part of a visit's outcome a real system could observe: a tap or no tap
/// (`OutcomeLearningStrategy.observe(outcome:context:)`).
public struct VisitFeedback: Sendable, Hashable {
  /// When the visit happened (epoch ms).
  public var visitTime: Int64
  /// Local hour of day (0...23) of the visit.
  public var hourOfDay: Int
  /// Local hour of week (0...167, Monday 00h = 0) of the visit.
  public var hourOfWeek: Int
  /// The instance shown at that visit.
  public var shown: Int32
  /// True when the person used the shown widget.
  public var tapped: Bool
  /// What the device knew at the visit (`StackContext.device` then, without the names:
  /// the person's vocabulary is `context.device.vocabulary` at any later event).
  /// `ContextSnapshot.unknown` in runs without context.
  public var device: ContextSnapshot

  @inlinable public init(
    visitTime: Int64, hourOfDay: Int, hourOfWeek: Int, shown: Int32, tapped: Bool,
    device: ContextSnapshot = .unknown
  ) {
    self.visitTime = visitTime
    self.hourOfDay = hourOfDay
    self.hourOfWeek = hourOfWeek
    self.shown = shown
    self.tapped = tapped
    self.device = device
  }
}
