import SmartStackBase
import SmartStackData

extension RotationLimit {
  /// True when the stack has used up its automatic rotations: at least `perHour` after
  /// `now - 1 h` or at least `perDay` after `now - 24 h` (`RotationHistory`). A limit of
  /// 0 means unlimited.
  ///
  /// - Complexity: O(rotations in the last 24 hours).
  @inlinable package func isExhausted(_ rotations: RotationHistory, now: Int64) -> Bool {
    if perDay > 0 && rotations.count(after: now &- 86_400_000) >= perDay { return true }
    return perHour > 0 && rotations.count(after: now &- 3_600_000) >= perHour
  }
}

/// One person's stack-rule state, owned by `StackSession`: the settings and the swipe
/// pin. The session asks it for each visit's `VisitPolicy` before the strategy ranks,
/// with the stack's rotations (`RotationHistory`, kept in the context), and tells it of
/// every swipe.
public struct StackRuleState: Sendable {
  public let settings: StackRuleSettings
  @usableFromInline package let cooldown: Int64
  @usableFromInline package let limits: Bool
  /// The instance a swipe pinned (-1: none) and the end of the pin (epoch ms, exclusive).
  @usableFromInline package var pinned: Int32 = -1
  @usableFromInline package var pinnedUntil = Int64.min

  public init(_ settings: StackRuleSettings) {
    self.settings = settings
    cooldown = settings.swipeCooldownMilliseconds
    limits = settings.limitsRotations
  }

  /// The policy of a visit at `t`, in this order: a swipe pin still running
  /// (`pinnedUntil > t`), Smart Rotate off, the rotation limit exhausted, else the
  /// strategy's ranking (`StackRules` then applies it).
  ///
  /// `limitExhausted` is evaluated only when the settings limit rotations
  /// (`RotationLimit.isExhausted` of the stack's `RotationHistory`): a run without a limit
  /// does not read the history at all.
  ///
  /// - Complexity: O(1), plus `limitExhausted`'s cost when the settings limit rotations.
  @inline(__always)
  @inlinable package func policy(at t: Int64, limitExhausted: @autoclosure () -> Bool) -> VisitPolicy {
    if pinned >= 0 && t < pinnedUntil { return .forced(pinned) }
    if !settings.smartRotate { return .noRotation(.smartRotateOff) }
    if limits && limitExhausted() { return .noRotation(.rotationLimit) }
    return .rank
  }

  /// The person swiped to `instance` at `t`: it is pinned for the cooldown.
  @inlinable package mutating func swiped(to instance: Int32, at t: Int64) {
    pinned = instance
    pinnedUntil = t &+ cooldown
  }
}
