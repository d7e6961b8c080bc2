import SmartStackBase
import SmartStackData

/// The instances whose own inputs changed since a strategy's last decision: what
/// an `InstanceScoringStrategy` is asked to score again.
///
/// A set of instance indices below `capacity` kept as one bit each (`1 << i`),
/// iterated in increasing index order. The engine passes one only to strategies with
/// `InstanceScoringStrategy` and stacks of at most `ChangedInstances.capacity` instances.
public struct ChangedInstances: Sequence, Sendable, Hashable {
  /// The largest stack the engine rescores instance by instance: one bit per instance
  /// in a `UInt64` (64).
  @inlinable public static var capacity: Int { UInt64.bitWidth }
  /// Bit `i` set: instance `i` changed.
  public var bits: UInt64

  /// The set whose members are the set bits of `bits`.
  @inlinable public init(bits: UInt64 = 0) { self.bits = bits }

  /// True when no instance changed.
  @inlinable public var isEmpty: Bool { bits == 0 }

  /// True when instance `i` changed. O(1).
  @inlinable public func contains(_ i: Int) -> Bool {
    i >= 0 && i < Self.capacity && bits & (1 &<< UInt64(truncatingIfNeeded: i)) != 0
  }

  /// Adds instance `i` (`0 <= i < capacity`). O(1).
  @inlinable @inline(__always)
  public mutating func insert(_ i: Int) {
    precondition(i >= 0 && i < Self.capacity, "ChangedInstances holds instance indices below its capacity")
    bits |= 1 &<< UInt64(truncatingIfNeeded: i)
  }

  /// The members in increasing order.
  public struct Iterator: IteratorProtocol {
    @usableFromInline package var remaining: UInt64
    @inlinable package init(_ bits: UInt64) { remaining = bits }
    @inlinable public mutating func next() -> Int? {
      guard remaining != 0 else { return nil }
      let i = remaining.trailingZeroBitCount
      remaining &= remaining &- 1
      return i
    }
  }

  @inlinable public func makeIterator() -> Iterator { Iterator(bits) }
}
