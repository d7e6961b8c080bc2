import SmartStackBase
import SmartStackData

/// The stack's rotations of the last 24 hours: the times (epoch ms) of the visits at
/// which the shown widget changed (`VisitOutcome.rotated`), whoever chose the change (the
/// strategy's ranking or suppression); a manual swipe is not a rotation. The one record
/// the stack's rotation limit (`RotationLimit`) and strategies (`StackContext.rotations`,
/// e.g. `smart-rotate`'s own rate limit) read.
///
/// Invariant: `times[head...]` are the kept rotations in the order they happened (time
/// order, unless a test's clock steps back); a rotation at or before the latest one
/// minus 24 hours may be forgotten, so counts are asked for windows of at most 24 hours.
public struct RotationHistory: Sendable {
  @usableFromInline package var times: [Int64] = []
  @usableFromInline package var head = 0

  @inlinable package init() {}

  /// Records a rotation at `t`; every 64 records, forgets those at or before `t` − 24 h.
  ///
  /// - Complexity: amortised O(1).
  @inline(__always)
  @inlinable package mutating func record(_ t: Int64) {
    times.append(t)
    if times.count & 63 == 0 { forget(atOrBefore: t &- 86_400_000) }
  }

  /// Forgets the rotations at or before `time` (from the oldest), compacting the storage
  /// when more than half of it is forgotten.
  @inline(never)
  @inlinable package mutating func forget(atOrBefore time: Int64) {
    while head < times.count && times[head] <= time { head += 1 }
    if head > 4096 && head * 2 > times.count {
      times.removeFirst(head)
      head = 0
    }
  }

  /// The number of rotations later than `time`: the most recent ones, counted back
  /// until one at or before `time` (`time` at least the latest rotation minus 24 hours).
  ///
  /// - Complexity: O(k) for the k rotations counted.
  @inlinable public func count(after time: Int64) -> Int {
    var n = 0
    var i = times.count
    while i > head && times[i - 1] > time {
      n &+= 1
      i -= 1
    }
    return n
  }

  /// The time of the latest rotation, or nil when none is kept.
  @inlinable public var latest: Int64? { times.count > head ? times[times.count - 1] : nil }
}
