import SmartStackBase

/// The stack's own settings that constrain what it shows (DESIGN.md §6): Smart Rotate,
/// the rotation rate limit (off in Developer Mode) and how long a manual swipe pins the
/// widget the person swiped to. The engine enforces them in every mode (simulation,
/// replay, rule replay) through `StackRuleState`.
public struct StackRuleSettings: Sendable, Hashable {
  /// The system may rotate to another widget (reference rule 18). Off: the widget on top
  /// stays until the person swipes.
  public var smartRotate: Bool = true
  /// WidgetKit Developer Mode: no rotation limit (reference rule 20).
  public var developerMode: Bool = false
  /// After a manual swipe the person's pick stays on top this long, in minutes, before
  /// the system may rotate again (reference Q4).
  public var swipeCooldownMinutes: Double = 60
  /// The rotation rate limit (reference rule 20, Q5); ignored in Developer Mode.
  public var rotationLimit = RotationLimit()

  public init(
    smartRotate: Bool = true, developerMode: Bool = false, swipeCooldownMinutes: Double = 60,
    rotationLimit: RotationLimit = RotationLimit()
  ) {
    self.smartRotate = smartRotate
    self.developerMode = developerMode
    self.swipeCooldownMinutes = swipeCooldownMinutes
    self.rotationLimit = rotationLimit
  }

  /// No constraint but suppression: Smart Rotate on, no rotation limit (as in Developer
  /// Mode), a swipe pins for 60 minutes. `replay`'s default, which keeps replay's results
  /// as they were before the engine owned the rules (a replayed log has no swipes).
  public static let unconstrained = StackRuleSettings(developerMode: true)

  /// True when the rotation limit can bind: not Developer Mode and some limit is set.
  public var limitsRotations: Bool {
    !developerMode && (rotationLimit.perHour > 0 || rotationLimit.perDay > 0)
  }

  /// The swipe pin's length in milliseconds.
  public var swipeCooldownMilliseconds: Int64 {
    InputLimits.milliseconds(swipeCooldownMinutes * 60_000)
  }
}

/// How often the system may change the widget on top by itself (Q5: the size is not
/// published, so these are free parameters). Enforced by the engine, for automatic
/// rotations only (never for manual swipes), and not at all in Developer Mode.
public struct RotationLimit: Sendable, Hashable {
  /// At most this many automatic rotations in any rolling hour (default 4; 0 = none).
  public var perHour: Int = 4
  /// At most this many automatic rotations in any rolling 24 hours (default 40; 0 = none).
  public var perDay: Int = 40

  public init(perHour: Int = 4, perDay: Int = 40) {
    self.perHour = perHour
    self.perDay = perDay
  }
}

