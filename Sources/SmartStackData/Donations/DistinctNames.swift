import Foundation

/// A set of distinct names (byte strings, compared byte for byte) that counts them exactly
/// with each name's bytes stored once: what `validate`'s streaming statistics keep per
/// kind of name instead of an `Interner` (which keeps a `String` and an arena copy).
///
/// **Layout.**
/// - *Arena*: chunks of `chunkBytes` (8 MiB), each reserved once and never reallocated,
///   so growing the arena allocates one more chunk instead of doubling (and copying) one
///   array. A name is stored as its length in LEB128 (1 byte below 128, 3 bytes up to
///   2 MiB) followed by its bytes, never across chunks: a name that does not fit in the
///   rest of the last chunk starts a new one, and a name longer than a chunk gets a chunk
///   of its own, of its exact size.
/// - *Reference*: a `UInt32`, the chunk index times 2^23 plus the offset in the chunk; so at
///   most 512 chunks (4 GiB of names in ordinary chunks, far above the 2 GiB input limit).
/// - *Table*: open addressing with linear probing over `capacity` slots (a power of two,
///   at least 16), at most 3/4 full; `refs[slot]` is the name's reference and
///   `tags[slot]` is 0 for an empty slot, else 0x80 | 7 bits of the name's hash, so a probe
///   compares names only when the tags agree. Growing doubles the table and rehashes the
///   names from the arena (hashes are not stored).
///
/// **Bound.** About name bytes + 1 to 3 length bytes + 5 B per slot (6.7 to 13.3 B per name
/// at load 3/4 to 3/8) per name, plus the unused tail of each chunk (less than 1/8 of a
/// chunk for names up to 1 MiB) and, while the table grows, the old table (5 B per slot).
/// Nothing is kept per name besides that: no `String`, no stored hash, no id.
///
/// **Complexity.** `insert` is O(n) expected for a name of n bytes (hash, tag-filtered
/// compares); growth rehashes every stored name, O(total bytes) amortised over the
/// insertions. `count` is O(1). Nothing reaches outputs in table order: only `count` and
/// membership are exposed.
struct DistinctNames: Sendable {
  /// Bytes per ordinary chunk: 8 MiB.
  static let chunkBytes = 1 << 23
  /// The most chunks a 32-bit reference can name.
  static let maximumChunks = 1 << 9

  private var chunks: [[UInt8]] = []
  private var refs = [UInt32](repeating: 0, count: 16)
  private var tags = [UInt8](repeating: 0, count: 16)
  /// The number of distinct names inserted. O(1).
  private(set) var count = 0
  /// Bits of the hash kept (all in use; tests keep few to force collisions).
  private let hashMask: UInt64

  /// An empty set. `hashMask` masks every hash (tests pass a small one so that many names
  /// collide); the default keeps all 64 bits.
  init(hashMask: UInt64 = .max) { self.hashMask = hashMask }

  /// The number of slots of the table (a power of two). O(1).
  var capacity: Int { refs.count }

  /// The bytes the arena's chunks hold reserved, for tests and measurements. O(chunks).
  var arenaBytes: Int { chunks.reduce(0) { $0 + $1.capacity } }

  /// Adds `name` unless it is present; returns true when it was new.
  ///
  /// - Complexity: O(`name.count`) expected; amortised O(1) table growth.
  @discardableResult
  mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let (slot, tag, found) = probe(name)
    if found { return false }
    refs[slot] = store(name)
    tags[slot] = tag
    count += 1
    if count * 4 > refs.count * 3 { grow() }
    return true
  }

  /// Adds `name` (its UTF-8 bytes) unless it is present; returns true when it was new.
  @discardableResult
  mutating func insert(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { insert($0) }
  }

  /// True when `name` was inserted. O(`name.count`) expected.
  func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool { probe(name).found }

  /// The slot holding `name` (`found`), or the empty slot where it would go, and its tag.
  @inline(__always)
  private func probe(_ name: UnsafeBufferPointer<UInt8>) -> (slot: Int, tag: UInt8, found: Bool) {
    let hash = Interner.hash(name) & hashMask
    let tag = Self.tag(hash)
    let mask = refs.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while tags[slot] != 0 {
      if tags[slot] == tag && equals(refs[slot], name) { return (slot, tag, true) }
      slot = (slot + 1) & mask
    }
    return (slot, tag, false)
  }

  @inline(__always)
  private static func tag(_ hash: UInt64) -> UInt8 { 0x80 | UInt8(truncatingIfNeeded: hash >> 57) }

  /// Appends `name` to the arena; returns its reference.
  private mutating func store(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var lengthBytes = 1
    while name.count >> (7 * lengthBytes) > 0 { lengthBytes += 1 }
    let needed = lengthBytes + name.count
    if chunks.isEmpty || chunks[chunks.count - 1].count + needed > Self.chunkBytes {
      precondition(chunks.count < Self.maximumChunks, "DistinctNames: more than 4 GiB of names")
      var chunk: [UInt8] = []
      chunk.reserveCapacity(max(Self.chunkBytes, needed))
      chunks.append(chunk)
    }
    let c = chunks.count - 1
    let offset = chunks[c].count
    var n = name.count
    for _ in 0..<lengthBytes {
      chunks[c].append(UInt8(n & 0x7F) | (n >= 0x80 ? 0x80 : 0))
      n >>= 7
    }
    chunks[c].append(contentsOf: name)
    // An ordinary chunk never reaches 2^23 bytes and a bigger one holds one name at offset
    // 0, so the offset always fits in 23 bits.
    return UInt32(c) << 23 | UInt32(offset)
  }

  /// The stored bytes of the name at `ref`, passed to `body`.
  @inline(__always)
  private func withName<R>(_ ref: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    chunks[Int(ref >> 23)].withUnsafeBufferPointer { chunk in
      var i = Int(ref & (1 << 23 - 1))
      var length = 0
      var shift = 0
      while true {
        let byte = chunk[i]
        length |= Int(byte & 0x7F) << shift
        i += 1
        if byte < 0x80 { break }
        shift += 7
      }
      return body(UnsafeBufferPointer(rebasing: chunk[i..<i + length]))
    }
  }

  private func equals(_ ref: UInt32, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    withName(ref) { stored in
      guard stored.count == name.count else { return false }
      guard let a = stored.baseAddress, let b = name.baseAddress else { return true }
      return memcmp(a, b, name.count) == 0
    }
  }

  /// Doubles the table, rehashing every name from the arena.
  private mutating func grow() {
    let size = refs.count * 2
    var biggerRefs = [UInt32](repeating: 0, count: size)
    var biggerTags = [UInt8](repeating: 0, count: size)
    let mask = size - 1
    for slot in refs.indices where tags[slot] != 0 {
      let ref = refs[slot]
      let hash = withName(ref) { Interner.hash($0) } & hashMask
      var k = Int(truncatingIfNeeded: hash) & mask
      while biggerTags[k] != 0 { k = (k + 1) & mask }
      biggerRefs[k] = ref
      biggerTags[k] = tags[slot]
    }
    refs = biggerRefs
    tags = biggerTags
  }
}
