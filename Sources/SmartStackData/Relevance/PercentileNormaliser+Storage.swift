import SmartStackBase

extension PercentileNormaliser {
  /// Every key's `Bucket`, in one raw buffer owned by one object.
  ///
  /// Why a class with raw buffers: every write into a Swift array held in a struct costs a
  /// uniqueness check, a call into the runtime that does not inline, and a record plus a
  /// percentile used to touch five arrays. Here `PercentileNormaliser` makes one
  /// `isKnownUniquelyReferenced` check per mutating call and copies the object when the
  /// normaliser value was copied (copy-on-write by hand), so normalisers keep value
  /// semantics.
  ///
  /// Only a `let` stored property: accessing a `var` of a class can cost a dynamic
  /// exclusivity check, so the bucket buffer and its counts live in raw memory too.
  @usableFromInline final package class Storage: @unchecked Sendable {
    /// The bucket buffer and its counts.
    @usableFromInline package struct Header {
      /// Buckets `0..<count` are initialised (one per key seen so far).
      @usableFromInline package var buckets: UnsafeMutablePointer<Bucket>
      @usableFromInline package var count: Int
      @usableFromInline package var capacity: Int
      /// The memberwise initialiser, for the engine's inlinable code.
      @inlinable package init(buckets: UnsafeMutablePointer<Bucket>, count: Int, capacity: Int) {
        self.buckets = buckets
        self.count = count
        self.capacity = capacity
      }
    }

    @usableFromInline package let header: UnsafeMutablePointer<Header>

    /// No buckets.
    @inlinable package init() {
      header = .allocate(capacity: 1)
      header.initialize(to: Header(buckets: .allocate(capacity: 4), count: 0, capacity: 4))
    }

    /// A copy with the same contents in new buffers.
    @inlinable package init(copying other: Storage) {
      let source = other.header.pointee
      header = .allocate(capacity: 1)
      header.initialize(
        to: Header(
          buckets: .allocate(capacity: source.capacity), count: source.count, capacity: source.capacity))
      let buckets = header.pointee.buckets
      for i in 0..<source.count {
        (buckets + i).initialize(to: source.buckets[i].copy())
      }
    }

    /// A copy with the same contents in new buffers. O(total records).
    @inlinable package func copy() -> Storage { Storage(copying: self) }

    deinit {
      let h = header.pointee
      for i in 0..<h.count { h.buckets[i].deallocate() }
      h.buckets.deallocate()
      header.deallocate()
    }

    /// The number of keys with a bucket (`0..<count`).
    @inline(__always)
    @inlinable package var count: Int { header.pointee.count }

    /// Key `key`'s bucket; `key` must be in `0..<count`.
    @inline(__always)
    @inlinable package func bucket(_ key: Int) -> UnsafeMutablePointer<Bucket> { header.pointee.buckets + key }

    /// Adds empty buckets so that `key` has one. O(1) amortised per key.
    @inlinable package func addBuckets(through key: Int) {
      var h = header.pointee
      guard key >= h.count else { return }
      if key >= h.capacity {
        let capacity = max(key &+ 1, h.capacity &* 2)
        let buckets = UnsafeMutablePointer<Bucket>.allocate(capacity: capacity)
        buckets.moveInitialize(from: h.buckets, count: h.count)
        h.buckets.deallocate()
        h.buckets = buckets
        h.capacity = capacity
      }
      for i in h.count...key {
        (h.buckets + i).initialize(to: Bucket())
      }
      h.count = key &+ 1
      header.pointee = h
    }
  }
}
