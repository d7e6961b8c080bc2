import Foundation
import SmartStackBase

/// A table of distinct names with dense `Int32` ids in first-appearance order.
///
/// The first name interned gets id 0, the next new one id 1, and so on; interning a name
/// again returns its existing id. Ids are therefore independent of hashing and identical
/// from run to run. Readers intern straight from a byte slice of the input: a `String` is
/// created only the first time a name is seen.
///
/// Lookups use an open-addressing hash table (linear probing, load factor at most 1/2) over
/// a byte arena, with a fixed, unseeded hash, so no `Dictionary` is involved.
///
/// Two interners are equal when they hold the same names in the same order.
public struct Interner: Sendable, Hashable, CustomStringConvertible {
  /// The names, indexed by id.
  public private(set) var names: [String] = []
  /// All names' UTF-8 bytes, back to back; name `i` ends at `ends[i]`.
  private var arena: [UInt8] = []
  private var ends: [Int] = []
  private var hashes: [UInt64] = []
  /// The table: a power-of-two count of slots, at most half of them used.
  private var slots = [Slot](repeating: Slot(), count: 16)

  /// One slot of the table: a name's hash, id (-1: empty), length and, for a name of at
  /// most 16 bytes, its bytes (`Key`), so that looking up a short name reads one slot
  /// and nothing else (reading the id, then its hash, then its bytes was three dependent
  /// loads, about half of interning a visit log's names).
  private struct Slot {
    var hash: UInt64 = 0
    var id: Int32 = -1
    var length: Int32 = 0
    var key = Key(words: (0, 0))
  }

  /// Up to 16 bytes of a name as two words, the same for the same bytes of one length:
  /// 8...16 bytes are the first and the last 8 (overlapping); 4...7, the first and last 4
  /// in one word; fewer, the bytes one by one. Longer names keep (0, 0) and are compared
  /// in the arena. A short name's hash is made from these words (`hash(_:count:)`).
  private struct Key: Equatable {
    var words: (UInt64, UInt64)

    @inline(__always)
    init(words: (UInt64, UInt64)) { self.words = words }

    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
      let count = bytes.count
      guard let base = bytes.baseAddress, count > 0, count <= 16 else {
        words = (0, 0)
        return
      }
      let raw = UnsafeRawPointer(base)
      if count >= 8 {
        words = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
      } else if count >= 4 {
        let low = UInt64(raw.loadUnaligned(as: UInt32.self))
        let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        words = (low | high &<< 32, 0)
      } else {
        words = (UInt64(base[0]) | UInt64(base[count &>> 1]) &<< 8 | UInt64(base[count &- 1]) &<< 16, 0)
      }
    }

    static func == (a: Key, b: Key) -> Bool { a.words.0 == b.words.0 && a.words.1 == b.words.1 }
  }

  /// An empty interner.
  public init() {}

  /// Interns `names` in order (repeats get their first id).
  public init(_ names: some Sequence<String>) {
    for name in names { intern(name) }
  }

  /// The number of distinct names. O(1).
  public var count: Int { names.count }

  /// The name with id `id`. O(1).
  ///
  /// - Precondition: `0 <= id < count`.
  public subscript(id: Int32) -> String { names[Int(id)] }

  /// The names, in id order.
  public var description: String { names.description }

  public static func == (a: Interner, b: Interner) -> Bool { a.names == b.names }
  public func hash(into hasher: inout Hasher) { hasher.combine(names) }

  /// The id of `bytes`, interning them (as UTF-8 text) when new.
  ///
  /// - Complexity: O(`bytes.count`) expected; amortised O(1) table growth.
  @discardableResult
  public mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    let (hash, key) = Self.hashAndKey(bytes)
    let (slot, found) = find(bytes, hash: hash, key: key)
    if found >= 0 { return found }
    let id = Int32(truncatingIfNeeded: names.count)
    names.append(String(decoding: bytes, as: UTF8.self))
    arena.append(contentsOf: bytes)
    ends.append(arena.count)
    hashes.append(hash)
    slots[slot] = Slot(hash: hash, id: id, length: Int32(truncatingIfNeeded: bytes.count), key: key)
    if names.count * 2 > slots.count { grow() }
    return id
  }

  /// The id of `name`, interning it when new.
  @discardableResult
  public mutating func intern(_ name: String) -> Int32 {
    var name = name
    return name.withUTF8 { intern($0) }
  }

  /// The id of `bytes`, or nil when they were never interned. O(`bytes.count`) expected.
  public func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
    let (hash, key) = Self.hashAndKey(bytes)
    let found = find(bytes, hash: hash, key: key).id
    return found >= 0 ? found : nil
  }

  /// The slot that holds `bytes` and its id, or the empty slot where they would go and -1.
  /// - Complexity: O(1) expected (load factor at most 1/2); O(n) more for a name longer
  ///   than 16 bytes whose hash matches.
  @inline(__always)
  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, key: Key) -> (slot: Int, id: Int32) {
    let length = Int32(truncatingIfNeeded: bytes.count)
    return slots.withUnsafeBufferPointer { table in
      let mask = table.count &- 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = table[slot]
        if entry.id < 0 { return (slot, -1) }
        if entry.hash == hash && entry.length == length && entry.key == key
          && (length <= 16 || equals(Int(entry.id), bytes))
        {
          return (slot, entry.id)
        }
        slot = (slot &+ 1) & mask
      }
    }
  }

  /// Renumbers the ids `ids[start...]` in place, id `i` becoming `map[i]` (a negative id,
  /// none, stays): how a part read on its own core, with an interner of its own, joins
  /// the whole log's ids (`map` being the part's names interned into the log's interner).
  /// Nothing is written when `map` is the identity.
  ///
  /// - Complexity: O(`ids.count - start` + `map.count`).
  static func remap(_ ids: inout [Int32], from start: Int = 0, through map: [Int32]) {
    guard map.indices.contains(where: { map[$0] != Int32(truncatingIfNeeded: $0) }) else { return }
    ids.withUnsafeMutableBufferPointer { ids in
      for i in start..<ids.count where ids[i] >= 0 { ids[i] = map[Int(ids[i])] }
    }
  }

  /// The id of `name`, or nil when it was never interned.
  public func id(of name: String) -> Int32? {
    var name = name
    return name.withUTF8 { id(of: $0) }
  }

  private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = id == 0 ? 0 : ends[id - 1]
    let end = ends[id]
    guard end - start == bytes.count else { return false }
    guard let other = bytes.baseAddress, bytes.count > 0 else { return true }
    return arena.withUnsafeBufferPointer { stored in
      memcmp(stored.baseAddress! + start, other, bytes.count) == 0
    }
  }

  private mutating func grow() {
    let size = slots.count * 2
    var bigger = [Slot](repeating: Slot(), count: size)
    let mask = size - 1
    arena.withUnsafeBufferPointer { arena in
      for id in 0..<names.count {
        var slot = Int(truncatingIfNeeded: hashes[id]) & mask
        while bigger[slot].id >= 0 { slot = (slot + 1) & mask }
        let start = id == 0 ? 0 : ends[id - 1]
        let bytes = UnsafeBufferPointer(rebasing: arena[start..<ends[id]])
        bigger[slot] = Slot(
          hash: hashes[id], id: Int32(truncatingIfNeeded: id), length: Int32(truncatingIfNeeded: bytes.count), key: Key(bytes))
      }
    }
    slots = bigger
  }

  /// `hash(bytes)` and `Key(bytes)`, the bytes of a name of at most 16 bytes read once.
  @inline(__always)
  private static func hashAndKey(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, key: Key) {
    let key = Key(bytes)
    return (bytes.count <= 16 ? hash(key, count: bytes.count) : longHash(bytes), key)
  }

  /// The hash of a name of `count` bytes, at most 16, from its `key`: the key's two words,
  /// each mixed with a constant (the first also with `count`), go through the "mum" mix
  /// of wyhash (a 64 × 64 → 128-bit multiplication, its halves XORed), and the result
  /// through it once more with constants. A lookup waits for its hash before it can load
  /// a slot, so a short name's hash is two multiplications deep instead of four. One mix
  /// alone left the low bits the table's mask keeps less spread for numbered names (a
  /// test checks the spread of six families of names).
  @inline(__always)
  private static func hash(_ key: Key, count: Int) -> UInt64 {
    let h = mum(key.words.0 ^ 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count), key.words.1 ^ 0xC4CE_B9FE_1A85_EC53)
    return mum(h ^ 0xFF51_AFD7_ED55_8CCD, 0x2D35_8DCC_AA6C_78A5)
  }

  /// The 128-bit product of `a` and `b`, its two halves XORed.
  @inline(__always)
  private static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }

  /// A fixed 64-bit hash of a byte string: for at most 16 bytes `hash(_:count:)` of its
  /// `Key`, for more `longHash(_:)`. Not seeded: ids never depend on it anyway.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    bytes.count <= 16 ? hash(Key(bytes), count: bytes.count) : longHash(bytes)
  }

  /// The hash of more than 16 bytes: 8 bytes at a time, multiply-rotate, then the last
  /// (possibly overlapping) 8 bytes, then the murmur3 finaliser.
  private static func longHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = bytes.count
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
    guard let base = bytes.baseAddress, count >= 8 else { return h }
    let raw = UnsafeRawPointer(base)
    var i = 0
    while i &+ 8 < count {
      h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      h = (h &<< 29) | (h &>> 35)
      i &+= 8
    }
    h = (h ^ raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &* 0xC4CE_B9FE_1A85_EC53
    h ^= h &>> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h &>> 33
    h = h &* 0xC4CE_B9FE_1A85_EC53
    h ^= h &>> 33
    return h
  }
}
