import SmartStackBase
import SmartStackData

extension RotationLimit {
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
