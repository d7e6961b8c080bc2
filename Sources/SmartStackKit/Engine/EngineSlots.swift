/// The engine's private state of one widget instance: what no strategy sees.
///
/// A trivial value type (no references), so a buffer of them is copied with one memcpy.
struct InstanceSlot {
  /// The instance's relevance window, entry by entry.
  var tracker = RelevanceTracker()
  /// Refreshing this instance's relevance would change nothing before this instant
  /// (epoch ms); `Int64.min` forces a refresh at the next visit.
  var validUntil = Int64.min
  /// Active with a normalised percentile at or above the run's threshold.
  var isHigh = false
  /// Start (epoch ms) of the watched top-percentile window, `Int64.min` when none is.
  var watchStart = Int64.min
  /// Scored visits at which the watched window's instance was a candidate.
  var watchVisits = 0
  /// Milliseconds from the watched window's start to the first visit that showed it,
  /// or -1 while it has not been shown.
  var surfacedAfter: Int64 = -1
  /// The instance's key in the percentile normaliser (itself, or its kind's group).
  var key = 0
}

/// Every instance's `InstanceSlot` plus the two short lists a visit walks (instances
/// with a top-percentile window, instances with a watched window), in raw buffers owned
/// by one object.
///
/// Why a class with raw buffers: every write into a Swift array held in a struct costs a
/// uniqueness check, a call into the runtime that does not inline, and relevance
/// bookkeeping touched about a dozen arrays per entry. Here one check per event suffices:
/// `StackSession` calls `isKnownUniquelyReferenced` before writing and copies the object
/// when the session value was copied (copy-on-write by hand), so sessions keep value
/// semantics.
///
/// Indices are instance indices `0..<count`, checked by the callers' preconditions.
final class EngineSlots: @unchecked Sendable {
  /// Number of instances.
  let count: Int
  /// One slot per instance.
  let slots: UnsafeMutablePointer<InstanceSlot>
  /// The instances whose slot `isHigh`, in the order they became so.
  let high: UnsafeMutablePointer<Int32>
  /// How many entries of `high` are in use.
  var highCount = 0
  /// The instances with a watched window (`watchStart != Int64.min`), in opening order.
  let watched: UnsafeMutablePointer<Int32>
  /// How many entries of `watched` are in use.
  var watchedCount = 0
  /// `tieRank[i]`: position of instance `i` in the order of
  /// `StackFeatures.tieBreakPrecedes` (0 = first), so that
  /// `tieBreakPrecedes(a, b) == (tieRank[a] < tieRank[b])`; kept up to date by
  /// `promote(_:features:)` at every matched donation.
  let tieRank: UnsafeMutablePointer<Int32>
  /// The inverse permutation: `tieOrder[k]` is the instance at tie-break position `k`.
  let tieOrder: UnsafeMutablePointer<Int32>

  /// Slots for `keys.count` instances with the given normaliser keys, nothing tracked,
  /// and the tie-break order of instances without donations: `kindOrder`.
  init(keys: [Int], kindOrder: [Int32]) {
    precondition(kindOrder.count == keys.count)
    count = keys.count
    slots = .allocate(capacity: max(1, count))
    high = .allocate(capacity: max(1, count))
    watched = .allocate(capacity: max(1, count))
    tieRank = .allocate(capacity: max(1, count))
    tieOrder = .allocate(capacity: max(1, count))
    for i in 0..<count {
      var slot = InstanceSlot()
      slot.key = keys[i]
      (slots + i).initialize(to: slot)
      tieRank[i] = kindOrder[i]
      tieOrder[Int(kindOrder[i])] = Int32(truncatingIfNeeded: i)
    }
  }

  /// A copy with the same contents in new buffers.
  private init(copying other: EngineSlots) {
    count = other.count
    slots = .allocate(capacity: max(1, count))
    high = .allocate(capacity: max(1, count))
    watched = .allocate(capacity: max(1, count))
    tieRank = .allocate(capacity: max(1, count))
    tieOrder = .allocate(capacity: max(1, count))
    slots.initialize(from: other.slots, count: count)
    tieRank.initialize(from: other.tieRank, count: count)
    tieOrder.initialize(from: other.tieOrder, count: count)
    high.initialize(from: other.high, count: other.highCount)
    watched.initialize(from: other.watched, count: other.watchedCount)
    highCount = other.highCount
    watchedCount = other.watchedCount
  }

  func copy() -> EngineSlots { EngineSlots(copying: self) }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
    high.deallocate()
    watched.deallocate()
    tieRank.deallocate()
    tieOrder.deallocate()
  }

  /// Moves instance `i` forward in the tie-break order past every instance it now
  /// precedes, after `features` recorded a donation of `i`. A donation only improves
  /// `i`'s key (one more donation, a later or equal last donation) and leaves the others'
  /// keys alone, so the order stays sorted.
  ///
  /// - Complexity: O(positions moved), at most O(n).
  @inline(__always)
  func promote(_ i: Int, features: StackFeatures) {
    var position = Int(tieRank[i])
    while position > 0 {
      let before = Int(tieOrder[position &- 1])
      if !features.tieBreakPrecedes(i, before) { break }
      tieOrder[position] = Int32(truncatingIfNeeded: before)
      tieRank[before] = Int32(truncatingIfNeeded: position)
      position &-= 1
    }
    tieOrder[position] = Int32(truncatingIfNeeded: i)
    tieRank[i] = Int32(truncatingIfNeeded: position)
  }

  /// Appends `i` to `high`. O(1).
  @inline(__always)
  func addHigh(_ i: Int) {
    high[highCount] = Int32(truncatingIfNeeded: i)
    highCount &+= 1
  }

  /// Removes `i` from `high`, keeping the others' order. O(highCount).
  @inline(__always)
  func removeHigh(_ i: Int) {
    Self.remove(Int32(truncatingIfNeeded: i), from: high, count: &highCount)
  }

  /// Appends `i` to `watched`. O(1).
  @inline(__always)
  func addWatched(_ i: Int) {
    watched[watchedCount] = Int32(truncatingIfNeeded: i)
    watchedCount &+= 1
  }

  /// Removes `i` from `watched`, keeping the others' order. O(watchedCount).
  @inline(__always)
  func removeWatched(_ i: Int) {
    Self.remove(Int32(truncatingIfNeeded: i), from: watched, count: &watchedCount)
  }

  @inline(__always)
  private static func remove(_ value: Int32, from list: UnsafeMutablePointer<Int32>, count: inout Int) {
    var k = 0
    while k < count && list[k] != value { k &+= 1 }
    guard k < count else { return }
    while k &+ 1 < count {
      list[k] = list[k &+ 1]
      k &+= 1
    }
    count &-= 1
  }
}
