import SmartStackBase
import SmartStackData

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
  @inlinable public var limitsRotations: Bool {
    !developerMode && (rotationLimit.perHour > 0 || rotationLimit.perDay > 0)
  }

  /// The swipe pin's length in milliseconds.
  @inlinable public var swipeCooldownMilliseconds: Int64 {
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

  /// True when the stack has used up its automatic rotations: at least `perHour` in
  /// `(now - 1 h, now]` or at least `perDay` in `(now - 24 h, now]` (`rotations` holds
  /// the times of the last 24 hours, ascending). A limit of 0 means unlimited.
  ///
  /// - Complexity: O(rotations in the last hour).
  @inlinable package func isExhausted(_ rotations: ArraySlice<Int64>, now: Int64) -> Bool {
    if perDay > 0 && rotations.count >= perDay { return true }
    guard perHour > 0 else { return false }
    var lastHour = 0
    for t in rotations.reversed() {
      if t <= now - 3_600_000 { break }
      lastHour += 1
    }
    return lastHour >= perHour
  }
}

/// One person's stack-rule state, owned by `StackSession`: the swipe pin and the times of
/// the stack's rotations in the last 24 hours. The session asks it for each visit's
/// `VisitPolicy` before the strategy ranks and tells it of every rotation and swipe.
///
/// Invariant: `rotationTimes[rotationHead...]` are ascending and later than the last
/// visit's time minus 24 hours; they are kept only when `settings.limitsRotations`.
public struct StackRuleState: Sendable {
  public let settings: StackRuleSettings
  @usableFromInline package let cooldown: Int64
  @usableFromInline package let limits: Bool
  /// The instance a swipe pinned (-1: none) and the end of the pin (epoch ms, exclusive).
  @usableFromInline package var pinned: Int32 = -1
  @usableFromInline package var pinnedUntil = Int64.min
  @usableFromInline package var rotationTimes: [Int64] = []
  @usableFromInline package var rotationHead = 0

  @inlinable public init(_ settings: StackRuleSettings) {
    self.settings = settings
    cooldown = settings.swipeCooldownMilliseconds
    limits = settings.limitsRotations
  }

  /// The policy of a visit at `t`, in this order: a swipe pin still running
  /// (`pinnedUntil > t`), Smart Rotate off, the rotation limit exhausted, else the
  /// strategy's ranking (`StackRules` then applies it).
  ///
  /// - Complexity: amortised O(1) plus O(rotations in the last hour).
  @inline(__always)
  @inlinable package mutating func policy(at t: Int64) -> VisitPolicy {
    if limits {
      while rotationHead < rotationTimes.count && rotationTimes[rotationHead] <= t - 86_400_000 {
        rotationHead += 1
      }
      if rotationHead > 4096 && rotationHead * 2 > rotationTimes.count {
        rotationTimes.removeFirst(rotationHead)
        rotationHead = 0
      }
    }
    if pinned >= 0 && t < pinnedUntil { return .forced(pinned) }
    if !settings.smartRotate { return .noRotation("smart rotate off") }
    if limits && settings.rotationLimit.isExhausted(rotationTimes[rotationHead...], now: t) {
      return .noRotation("stack rotation limit")
    }
    return .rank
  }

  /// The stack rotated at `t` (the shown widget changed at a visit).
  @inline(__always)
  @inlinable package mutating func rotated(at t: Int64) {
    if limits { rotationTimes.append(t) }
  }

  /// The person swiped to `instance` at `t`: it is pinned for the cooldown.
  @inlinable package mutating func swiped(to instance: Int32, at t: Int64) {
    pinned = instance
    pinnedUntil = t &+ cooldown
  }
}
