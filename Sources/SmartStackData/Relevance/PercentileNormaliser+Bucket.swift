import SmartStackBase

extension PercentileNormaliser {
  /// One key's records and population, in one raw allocation it owns (freed by
  /// `Storage`): a trivial value.
  ///
  /// `dates[0..<count]` and `scores[0..<count]` hold every record of the key, sorted by
  /// date (stable: equal dates keep their recording order). The population at `lastNow`
  /// is the records `head..<tail`: `tail` is the first record dated after `lastNow`,
  /// `head` the first one still inside the window (`head == 0` with `.all`).
  ///
  /// `pool[0..<(tail - head)]` holds the population's scores, in no particular order,
  /// and `pool[(tail - head)..<(capacity + 8)]` is NaN. While the population has at most
  /// `countingLimit` scores a percentile counts the pool eight slots at a time in SIMD
  /// registers (NaN is neither below nor equal to anything, so whole chunks of eight are
  /// counted without a branch on the length); a score entering is appended and one
  /// leaving is replaced by the last. Above `countingLimit` the pool is sorted and
  /// searched, and kept sorted as scores enter and leave (one shift each), until the
  /// population is down to `sortedDropLimit` scores at a query (the gap avoids sorting
  /// back and forth at one size).
  @usableFromInline package struct Bucket {
    @usableFromInline package var dates: UnsafeMutablePointer<Int64>
    @usableFromInline package var scores: UnsafeMutablePointer<Double>
    @usableFromInline package var pool: UnsafeMutablePointer<Double>
    @usableFromInline package var count = 0
    @usableFromInline package var capacity: Int
    @usableFromInline package var head = 0
    @usableFromInline package var tail = 0
    @usableFromInline package var lastNow = Int64.min
    /// Set when a record landed before `tail`: the population must be found again.
    @usableFromInline package var needsRebuild = false
    /// Whether `pool[0..<(tail - head)]` is sorted ascending (and kept so).
    @usableFromInline package var poolSorted = false

    /// Up to this many scores a percentile counts the population; above, it sorts the
    /// pool and searches it.
    @usableFromInline static package let countingLimit = 256
    /// A query with at most this many scores stops keeping the pool sorted.
    @usableFromInline static package let sortedDropLimit = 128
    /// NaN slots after the pool's capacity, so that a chunk of eight starting before
    /// `capacity` stays inside the allocation.
    @usableFromInline static package let poolPadding = 8

    /// No records.
    @inlinable package init() {
      capacity = 64
      (dates, scores, pool) = Self.allocate(capacity: capacity)
      pool.initialize(repeating: .nan, count: capacity &+ Self.poolPadding)
    }

    /// One allocation for `capacity` dates, `capacity` scores and
    /// `capacity + poolPadding` pool slots, uninitialised.
    @inlinable static package func allocate(
      capacity: Int
    ) -> (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>) {
      let raw = UnsafeMutableRawPointer.allocate(
        byteCount: (capacity &* 3 &+ poolPadding) &* 8, alignment: 16)
      return (
        raw.bindMemory(to: Int64.self, capacity: capacity),
        (raw + capacity &* 8).bindMemory(to: Double.self, capacity: capacity),
        (raw + capacity &* 16).bindMemory(to: Double.self, capacity: capacity &+ poolPadding)
      )
    }

    /// The same bucket in a new allocation.
    @inlinable package func copy() -> Bucket {
      var copy = self
      (copy.dates, copy.scores, copy.pool) = Self.allocate(capacity: capacity)
      copy.dates.initialize(from: dates, count: count)
      copy.scores.initialize(from: scores, count: count)
      copy.pool.initialize(from: pool, count: capacity &+ Self.poolPadding)
      return copy
    }

    /// Frees the allocation (the bucket must not be used afterwards).
    @inlinable package func deallocate() {
      UnsafeMutableRawPointer(dates).deallocate()
    }

    /// The number of scores in the population at `lastNow`.
    @inline(__always)
    @inlinable package var populationCount: Int { tail &- head }

    // MARK: - Records

    /// Adds a record. O(1) amortised in date order; O(count) for an earlier date.
    @inline(__always)
    @inlinable mutating package func record(score: Double, at date: Int64) {
      if count == capacity { grow() }
      if count > 0 && date < dates[count &- 1] {
        insertRecord(score: score, at: date)
        return
      }
      dates[count] = date
      scores[count] = score
      count &+= 1
    }

    /// Doubles the capacity.
    @inlinable mutating package func grow() {
      let newCapacity = capacity &* 2
      let (newDates, newScores, newPool) = Self.allocate(capacity: newCapacity)
      let n = populationCount
      newDates.initialize(from: dates, count: count)
      newScores.initialize(from: scores, count: count)
      newPool.initialize(from: pool, count: n)
      (newPool + n).initialize(repeating: .nan, count: newCapacity &+ Self.poolPadding &- n)
      deallocate()
      (dates, scores, pool) = (newDates, newScores, newPool)
      capacity = newCapacity
    }

    /// Inserts a record dated before the last one after every record of its date or
    /// earlier (stable), with room for it. O(count).
    @inlinable mutating package func insertRecord(score: Double, at date: Int64) {
      let position = firstRecord(after: date)
      let moved = count &- position
      (dates + position + 1).moveInitialize(from: dates + position, count: moved)
      (scores + position + 1).moveInitialize(from: scores + position, count: moved)
      dates[position] = date
      scores[position] = score
      count &+= 1
      if position < tail { needsRebuild = true }
    }

    /// The index of the first record dated after `date` (`count` if none is). O(log n).
    @inlinable package func firstRecord(after date: Int64) -> Int {
      Self.upperBound(date, in: dates, count: count)
    }

    // MARK: - Population

    /// Moves the population to `now`: records dated `<= now` enter it, records dated
    /// `<= now - windowMilliseconds` leave it.
    @inline(__always)
    @inlinable mutating package func advance(to now: Int64, windowMilliseconds: Int64?) {
      if needsRebuild || now < lastNow {
        rebuild(at: now, windowMilliseconds: windowMilliseconds)
        return
      }
      lastNow = now
      while tail < count && dates[tail] <= now {
        enter(scores[tail])
        tail &+= 1
      }
      guard let windowMilliseconds else { return }
      let limit = Self.limit(now, windowMilliseconds)
      while head < tail && dates[head] <= limit {
        leave(scores[head])
        head &+= 1
      }
    }

    /// Adds `s` to the pool (before `tail` moves past its record). O(1), or O(n) while
    /// the pool is kept sorted.
    @inline(__always)
    @inlinable mutating package func enter(_ s: Double) {
      let n = populationCount
      if poolSorted {
        let index = Self.upperBound(s, in: pool, count: n)
        (pool + index + 1).moveInitialize(from: pool + index, count: n &- index)
        pool[index] = s
      } else {
        pool[n] = s
      }
    }

    /// Removes one score equal to `s` from the pool (before `head` moves past its
    /// record; the pool holds it). O(n).
    @inlinable mutating package func leave(_ s: Double) {
      let n = populationCount
      let last = n &- 1
      if poolSorted {
        let index = min(Self.lowerBound(s, in: pool, count: n), last)
        (pool + index).moveInitialize(from: pool + index + 1, count: last &- index)
      } else {
        var index = 0
        while index < last && pool[index] != s { index &+= 1 }
        pool[index] = pool[last]
      }
      pool[last] = .nan
    }

    /// The latest date that has left a window of `windowMilliseconds` at `now` (it is
    /// `(now - window, now]`), saturated.
    @inline(__always)
    @inlinable static package func limit(_ now: Int64, _ windowMilliseconds: Int64) -> Int64 {
      let (cutoff, overflow) = now.subtractingReportingOverflow(windowMilliseconds)
      return overflow ? (windowMilliseconds > 0 ? Int64.min : Int64.max) : cutoff
    }

    /// Finds the population at `now` again (after `now` went back or a record landed
    /// inside the population) and refills the pool, unsorted. O(log count + n).
    @inlinable mutating package func rebuild(at now: Int64, windowMilliseconds: Int64?) {
      let oldCount = populationCount
      lastNow = now
      needsRebuild = false
      poolSorted = false
      tail = firstRecord(after: now)
      head = 0
      if let windowMilliseconds {
        head = min(tail, firstRecord(after: Self.limit(now, windowMilliseconds)))
      }
      let n = populationCount
      pool.update(from: scores + head, count: n)
      if oldCount > n { (pool + n).update(repeating: .nan, count: oldCount &- n) }
    }

    /// The percentile of `s` in the population, nil when it is empty: O(n) for
    /// n <= `countingLimit`, else O(log n) (plus O(n log n) when the pool gets sorted).
    ///
    /// Counting gives `below + upTo` in one sum: `(Double(below) + 0.5 * Double(upTo -
    /// below))` and `Double(below + upTo) * 0.5` are both exactly `(below + upTo) / 2`
    /// (a multiple of 0.5 far below 2^52), so the quotient is the same Double.
    ///
    /// With `addingItself`, `s` counts once more, as a member of the population (its own
    /// entry has left a `days` window but is still the current score): the percentile
    /// over the population plus `s`, 0.5 when the population is empty.
    @inline(__always)
    @inlinable mutating package func percentile(of s: Double, addingItself: Bool = false) -> Double? {
      let n = populationCount
      let extra = addingItself ? 1 : 0
      if n == 0 { return addingItself ? 0.5 : nil }
      if n <= Self.sortedDropLimit || (n <= Self.countingLimit && !poolSorted) {
        poolSorted = false
        return (Double(Self.belowPlusUpTo(s, in: pool, count: n) &+ extra) * 0.5) / Double(n &+ extra)
      }
      if !poolSorted {
        var buffer = UnsafeMutableBufferPointer(start: pool, count: n)
        buffer.sort()
        poolSorted = true
      }
      let below = Self.lowerBound(s, in: pool, count: n)
      let upTo = Self.upperBound(s, in: pool, count: n)
      return (Double(below) + 0.5 * Double(upTo - below + extra)) / Double(n &+ extra)
    }

    // MARK: - Counting and searching

    /// `count(x < value) + count(x <= value)` over `a[0..<n]`, in any order, where the
    /// slots from `n` to the next multiple of eight hold NaN: eight slots at a time in
    /// SIMD registers, with no branch but the loop's.
    @inline(__always)
    @inlinable static package func belowPlusUpTo(_ value: Double, in a: UnsafePointer<Double>, count n: Int) -> Int {
      // A lane of a comparison's mask is all ones (-1) where it holds; false for NaN.
      var sum = SIMD8<Int64>()
      let v = SIMD8<Double>(repeating: value)
      let raw = UnsafeRawPointer(a)
      var i = 0
      while i < n {
        let x = raw.loadUnaligned(fromByteOffset: i &* 8, as: SIMD8<Double>.self)
        sum &-= unsafeBitCast(x .< v, to: SIMD8<Int64>.self)
        sum &-= unsafeBitCast(x .<= v, to: SIMD8<Int64>.self)
        i &+= 8
      }
      return Int(sum.wrappedSum())
    }

    /// The first index whose element is `>= value` in ascending `a[0..<n]`. O(log n).
    @inlinable static package func lowerBound(_ value: Double, in a: UnsafePointer<Double>, count n: Int) -> Int {
      var low = 0
      var high = n
      while low < high {
        let mid = low &+ (high &- low) / 2
        if a[mid] < value { low = mid &+ 1 } else { high = mid }
      }
      return low
    }

    /// The first index whose element is `> value` in ascending `a[0..<n]`. O(log n).
    @inline(__always)
    @inlinable static package func upperBound<T: Comparable>(_ value: T, in a: UnsafePointer<T>, count n: Int) -> Int {
      var low = 0
      var high = n
      while low < high {
        let mid = low &+ (high &- low) / 2
        if a[mid] <= value { low = mid &+ 1 } else { high = mid }
      }
      return low
    }
  

    // MARK: - The same over arrays (for tests)

    /// `lowerBound(value)` of an ascending array, by the pool's binary search.
    @inlinable static package func lowerBound(_ value: Double, in array: [Double]) -> Int {
      array.withUnsafeBufferPointer { a in
        guard let base = a.baseAddress else { return 0 }
        return lowerBound(value, in: base, count: a.count)
      }
    }

    /// `upperBound(value)` of an ascending array, by the pool's binary search.
    @inlinable static package func upperBound(_ value: Double, in array: [Double]) -> Int {
      array.withUnsafeBufferPointer { a in
        guard let base = a.baseAddress else { return 0 }
        return upperBound(value, in: base, count: a.count)
      }
    }

    /// `(count(< value), count(<= value))` of an ascending array the way a percentile
    /// finds them: up to `countingLimit` elements by the SIMD count (over a NaN-padded
    /// copy), above by binary search.
    @inlinable static package func bounds(_ value: Double, in array: [Double]) -> (Int, Int) {
      let below = lowerBound(value, in: array)
      if array.count > countingLimit { return (below, upperBound(value, in: array)) }
      let padded = array + [Double](repeating: .nan, count: 8)
      let sum = padded.withUnsafeBufferPointer { a in
        a.baseAddress.map { belowPlusUpTo(value, in: $0, count: array.count) } ?? 0
      }
      return (below, sum - below)
    }
  }
}
