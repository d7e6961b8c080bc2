import SmartStackBase
import SmartStackData

/// The engine's private state of one widget instance: what no strategy sees.
///
/// A trivial value type (no references), so a buffer of them is copied with one memcpy.
@usableFromInline package struct InstanceSlot {
  /// The instance's relevance window, entry by entry.
  @usableFromInline package var tracker = RelevanceTracker()
  /// Refreshing this instance's relevance would change nothing before this instant
  /// (epoch ms); `Int64.min` forces a refresh at the next visit.
  @usableFromInline package var validUntil = Int64.min
  /// Active with a normalised percentile at or above the run's threshold.
  @usableFromInline package var isHigh = false
  /// The instance's key in the percentile normaliser (itself, or its kind's group).
  @usableFromInline package var key = 0
  /// A slot with every field at its default.
  @inlinable package init() {}
}

/// Raw pointers into an `EngineSlots`' memory: every instance's `InstanceSlot`, the short
/// list a visit walks (instances with a top-percentile window), the tie-break order and
/// the last decision's order keys.
///
/// A trivial value: passing it costs no reference counting.
///
/// **Invariants** (what every reader may assume and every writer keeps):
/// - valid while the owning `EngineSlots` is alive; a view read before
///   `StackSession.uniqueSlots()` copied the owner points into the old copy, so write
///   only through the view that call returns;
/// - indices are instance indices `0..<count`, checked by the callers' preconditions
///   (the pointers are not: an index outside is undefined behaviour);
/// - `slots[0..<count]`, `tieRank[0..<count]`, `tieOrder[0..<count]`,
///   `orderKeys[0..<max(1, count)]` and `listCounts[0]` are initialised;
/// - `tieRank` and `tieOrder` are inverse permutations of `0..<count`:
///   `tieOrder[Int(tieRank[i])] == i`;
/// - `high[0..<highCount]` are distinct instances, exactly those whose slot `isHigh`;
///   so the count stays at most `count`, the buffer's capacity;
/// - `orderKeys` hold the last remembered decision's keys (`DecisionCache`); they mean
///   nothing while it is not reusable.
@usableFromInline package struct SlotsView {
  /// Number of instances.
  @usableFromInline package let count: Int
  /// One slot per instance.
  @usableFromInline package let slots: UnsafeMutablePointer<InstanceSlot>
  /// The instances whose slot `isHigh`, in the order they became so (`highCount`).
  @usableFromInline package let high: UnsafeMutablePointer<Int32>
  /// `[highCount]`.
  @usableFromInline package let listCounts: UnsafeMutablePointer<Int>
  /// `tieRank[i]`: position of instance `i` in the order of
  /// `StackFeatures.tieBreakPrecedes` (0 = first), so that
  /// `tieBreakPrecedes(a, b) == (tieRank[a] < tieRank[b])`; kept up to date by
  /// `promote(_:features:)` at every matched donation.
  @usableFromInline package let tieRank: UnsafeMutablePointer<Int32>
  /// The inverse permutation: `tieOrder[k]` is the instance at tie-break position `k`.
  @usableFromInline package let tieOrder: UnsafeMutablePointer<Int32>
  /// The last ranked visit's order keys (`StackSession.orderKey`), 0 for instances
  /// that were not candidates: what a reused decision ranks targets by.
  @usableFromInline package let orderKeys: UnsafeMutablePointer<UInt128>
  /// The memberwise initialiser, for the engine's inlinable code.
  @inlinable package init(count: Int, slots: UnsafeMutablePointer<InstanceSlot>, high: UnsafeMutablePointer<Int32>, listCounts: UnsafeMutablePointer<Int>, tieRank: UnsafeMutablePointer<Int32>, tieOrder: UnsafeMutablePointer<Int32>, orderKeys: UnsafeMutablePointer<UInt128>) {
    self.count = count
    self.slots = slots
    self.high = high
    self.listCounts = listCounts
    self.tieRank = tieRank
    self.tieOrder = tieOrder
    self.orderKeys = orderKeys
  }

  /// How many entries of `high` are in use.
  @inlinable package var highCount: Int {
    @inline(__always) get { listCounts[0] }
    @inline(__always) nonmutating set { listCounts[0] = newValue }
  }

  /// Appends `i` to `high`. O(1).
  @inline(__always)
  @inlinable package func addHigh(_ i: Int) {
    high[highCount] = Int32(truncatingIfNeeded: i)
    highCount &+= 1
  }

  /// Removes `i` from `high`, keeping the others' order. O(highCount).
  @inline(__always)
  @inlinable package func removeHigh(_ i: Int) {
    highCount = Self.remove(Int32(truncatingIfNeeded: i), from: high, count: highCount)
  }

  /// Removes the first `value` of `list[0..<count]`; returns the new count.
  @inline(__always)
  @inlinable static package func remove(_ value: Int32, from list: UnsafeMutablePointer<Int32>, count: Int) -> Int {
    var k = 0
    while k < count && list[k] != value { k &+= 1 }
    guard k < count else { return count }
    while k &+ 1 < count {
      list[k] = list[k &+ 1]
      k &+= 1
    }
    return count &- 1
  }

  /// Moves instance `i` forward in the tie-break order past every instance it now
  /// precedes, after `features` recorded a donation of `i`. A donation only improves
  /// `i`'s key (one more donation, a later or equal last donation) and leaves the others'
  /// keys alone, so the order stays sorted.
  ///
  /// With `movingKeys`, the remembered `orderKeys` follow: each instance passed moves
  /// one place back (its key's tie part, `UInt32.max - tieRank`, one less) and `i` gets
  /// its new tie part; keys of non-candidates (0) stay 0. The order of every other pair
  /// of instances is unchanged, so only `i` can overtake anyone.
  ///
  /// - Complexity: O(positions moved), at most O(n).
  @inline(__always)
  @inlinable package func promote(_ i: Int, features: StackFeatures, movingKeys: Bool = false) {
    var position = Int(tieRank[i])
    while position > 0 {
      let before = Int(tieOrder[position &- 1])
      if !features.tieBreakPrecedes(i, before) { break }
      tieOrder[position] = Int32(truncatingIfNeeded: before)
      tieRank[before] = Int32(truncatingIfNeeded: position)
      if movingKeys && orderKeys[before] != 0 { orderKeys[before] &-= 1 }
      position &-= 1
    }
    tieOrder[position] = Int32(truncatingIfNeeded: i)
    tieRank[i] = Int32(truncatingIfNeeded: position)
    if movingKeys && orderKeys[i] != 0 {
      orderKeys[i] = orderKeys[i] & ~UInt128(UInt32.max) | UInt128(UInt32.max &- UInt32(truncatingIfNeeded: position))
    }
  }
}

/// Owns the memory a `SlotsView` points into.
///
/// Why a class with raw buffers: every write into a Swift array held in a struct costs a
/// uniqueness check, a call into the runtime that does not inline, and relevance
/// bookkeeping touched about a dozen arrays per entry. Here one check per event suffices:
/// `StackSession` calls `isKnownUniquelyReferenced` before writing and copies the object
/// when the session value was copied (copy-on-write by hand), so sessions keep value
/// semantics. The session then works through the trivial `view`, which costs no
/// reference counting.
///
/// Invariants: only `StackSession` (and its copies) hold a reference, so "uniquely
/// referenced" means "not shared with a copied session"; `view`'s buffers are allocated
/// with capacity `max(1, count)` (`listCounts`: 1) in `init` and freed in `deinit`,
/// and hold what `SlotsView` states.
@usableFromInline final package class EngineSlots: @unchecked Sendable {
  /// Pointers to this object's memory.
  @usableFromInline package let view: SlotsView

  /// Slots for `keys.count` instances with the given normaliser keys, nothing tracked,
  /// and the tie-break order of instances without donations: `kindOrder`.
  @inlinable package init(keys: [Int], kindOrder: [Int32]) {
    precondition(kindOrder.count == keys.count)
    let count = keys.count
    view = Self.allocate(count)
    for i in 0..<count {
      var slot = InstanceSlot()
      slot.key = keys[i]
      (view.slots + i).initialize(to: slot)
      view.tieRank[i] = kindOrder[i]
      view.tieOrder[Int(kindOrder[i])] = Int32(truncatingIfNeeded: i)
    }
    view.listCounts.initialize(repeating: 0, count: 1)
    view.orderKeys.initialize(repeating: 0, count: max(1, count))
  }

  /// A copy with the same contents in new buffers.
  @inlinable package init(copying other: EngineSlots) {
    let o = other.view
    view = Self.allocate(o.count)
    view.slots.initialize(from: o.slots, count: o.count)
    view.high.initialize(from: o.high, count: o.highCount)
    view.tieRank.initialize(from: o.tieRank, count: o.count)
    view.tieOrder.initialize(from: o.tieOrder, count: o.count)
    view.listCounts.initialize(from: o.listCounts, count: 1)
    view.orderKeys.initialize(from: o.orderKeys, count: max(1, o.count))
  }

  @inlinable static package func allocate(_ count: Int) -> SlotsView {
    let capacity = max(1, count)
    return SlotsView(
      count: count, slots: .allocate(capacity: capacity), high: .allocate(capacity: capacity),
      listCounts: .allocate(capacity: 1),
      tieRank: .allocate(capacity: capacity), tieOrder: .allocate(capacity: capacity),
      orderKeys: .allocate(capacity: capacity))
  }

  @inlinable package func copy() -> EngineSlots { EngineSlots(copying: self) }

  deinit {
    view.slots.deinitialize(count: view.count)
    view.slots.deallocate()
    view.high.deallocate()
    view.listCounts.deallocate()
    view.tieRank.deallocate()
    view.tieOrder.deallocate()
    view.orderKeys.deallocate()
  }
}
