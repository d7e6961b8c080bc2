import SmartStackBase
import SmartStackData
import SmartStackEngine

/// The simulated person's Smart Stack: its widgets and the system behaviour around it.
/// Every person of a scenario has a stack with these settings.
public struct StackSettings: Sendable, Hashable {
  /// The widgets the person added, in manual order (1 to 10, reference rule 19).
  public var instances: [WidgetInstance]
  /// The system may rotate to a widget (reference rule 18; default true). Off: the
  /// stack only changes when the person swipes.
  public var smartRotate: Bool = true
  /// The system may insert suggested widgets (reference rule 18; default false, as on
  /// a stack a person built by hand).
  public var widgetSuggestions: Bool = false
  /// WidgetKit Developer Mode: no rotation or insertion limit (reference rule 20;
  /// default false).
  public var developerMode: Bool = false
  /// After a manual swipe the person's pick stays on top this long, in minutes, before
  /// the system may rotate again (reference Q4; default 60).
  public var swipeCooldownMinutes: Double = 60
  /// The rotation rate limit (reference rule 20, Q5).
  public var rotationLimit: RotationLimit = RotationLimit()
  /// The timeline refresh budget (reference rules 23-26, Q9).
  public var reloadBudget: ReloadBudget = ReloadBudget()

  public init(instances: [WidgetInstance]) {
    self.instances = instances
  }

  /// The settings the engine enforces (`StackRuleState`).
  public var rules: StackRuleSettings {
    get {
      StackRuleSettings(
        smartRotate: smartRotate, developerMode: developerMode, swipeCooldownMinutes: swipeCooldownMinutes,
        rotationLimit: rotationLimit)
    }
    set {
      smartRotate = newValue.smartRotate
      developerMode = newValue.developerMode
      swipeCooldownMinutes = newValue.swipeCooldownMinutes
      rotationLimit = newValue.rotationLimit
    }
  }
}

/// The per-instance refresh budget over a rolling 24 hours (reference rules 23-26, Q9).
///
/// At a reload request at time `t`, with `V` the person's Home Screen visits in
/// `(t - 24 h, t]` (the part of that window before the simulation's start counts at the
/// persona's expected rate, as if the person had used the phone before, which also
/// stands in for the "learning period"), the budget is
///
///     B(t) = ⌊minimum + (maximum - minimum) × min(1, V / visitsForMaximum)⌋
///
/// and the request is granted when fewer than `B(t)` budgeted reloads of the instance
/// happened in `(t - 24 h, t]`. "Seen" means Home Screen visits, not time on top of the
/// stack: that keeps the budget independent of the ranking strategy (paired design).
public struct ReloadBudget: Sendable, Hashable {
  /// Budget of an instance that is rarely seen (default 40).
  public var minimum: Double = 40
  /// Budget of an instance seen `visitsForMaximum` times a day or more (default 70).
  public var maximum: Double = 70
  /// Visits per 24 hours that earn the full budget (default 90, reference rule 21).
  public var visitsForMaximum: Double = 90
  /// Reloads of one instance closer than this many minutes coalesce (default 5,
  /// reference rule 26).
  public var spacingMinutes: Double = 5
  /// When WidgetKit picks the time of the next reload itself (`atEnd` with nothing
  /// ahead, or after a refusal), it picks uniformly in this range of minutes (default
  /// 15...60, "reloads every 15 to 60 minutes", reference rule 23).
  public var systemPickMinutes: ClosedRange<Double> = 15...60

  public init() {}

  /// `B(t)` for `visits` visits in the last 24 hours.
  @inline(__always)
  public func allowance(visits: Double) -> Int {
    let share = visitsForMaximum > 0 ? min(1, max(0, visits / visitsForMaximum)) : 1
    let budget = minimum + (maximum - minimum) * share
    return budget.isFinite ? Int(max(0, min(budget, 1e9)).rounded(.down)) : 0
  }
}
