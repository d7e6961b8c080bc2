import SmartStackBase
import SmartStackData

/// One of replay's queues of pending outcome reveals: first in, first out, with a
/// capacity fixed up front (replay queues at most one reveal per visit, so the person's
/// visit count).
///
/// Replay queues a reveal after each visit of a strategy that observes outcomes and pops
/// it when its time comes; an `Array` pair (times and feedbacks) made two
/// copy-on-write checks per push and a bounds-checked read of the head's time at every
/// event. This owns one raw allocation, is not copyable (so nothing can share it) and
/// frees it when it goes away.
///
/// Invariants: `0 <= head <= tail <= capacity`; `storage[0..<tail]` is initialised
/// (popped elements too, until `deinit` deinitialises them all); the pending reveals are
/// `storage[head..<tail]`, in push order, which is ascending time for replay's queues
/// (the queue itself does not sort).
///
/// - Complexity: every operation O(1); memory O(capacity), 80 bytes per reveal (on
///   x86-64; the feedback carries the visit's 32-byte `ContextSnapshot`).
@usableFromInline package struct RevealQueue: ~Copyable {
  /// A reveal due at `time`.
  @usableFromInline package struct Pending {
    @usableFromInline package var time: Int64
    @usableFromInline package var feedback: VisitFeedback
    /// The memberwise initialiser, for the engine's inlinable code.
    @inlinable package init(time: Int64, feedback: VisitFeedback) {
      self.time = time
      self.feedback = feedback
    }
  }

  @usableFromInline package let storage: UnsafeMutablePointer<Pending>
  @usableFromInline package let capacity: Int
  /// Pending reveals are `storage[head..<tail]`, in the order pushed.
  @usableFromInline package var head = 0
  @usableFromInline package var tail = 0

  /// An empty queue with room for `capacity` pushes in all.
  @inlinable package init(capacity: Int) {
    self.capacity = max(capacity, 0)
    storage = .allocate(capacity: self.capacity)
  }

  @inlinable deinit {
    storage.deinitialize(count: tail)
    storage.deallocate()
  }

  /// The time of the oldest pending reveal, or `Int64.max` when none is pending.
  @inlinable @inline(__always) package var nextTime: Int64 {
    head < tail ? storage[head].time : Int64.max
  }

  /// Queues a reveal due at `time`.
  ///
  /// - Precondition: fewer than `capacity` pushes so far.
  @inlinable @inline(__always) mutating package func push(_ feedback: VisitFeedback, at time: Int64) {
    precondition(tail < capacity, "RevealQueue: more pushes than its capacity \(capacity)")
    (storage + tail).initialize(to: Pending(time: time, feedback: feedback))
    tail += 1
  }

  /// Removes and returns the oldest pending reveal's feedback.
  ///
  /// - Precondition: a reveal is pending.
  @inlinable @inline(__always) mutating package func pop() -> VisitFeedback {
    precondition(head < tail, "RevealQueue: pop from an empty queue")
    head += 1
    return storage[head - 1].feedback
  }
}
