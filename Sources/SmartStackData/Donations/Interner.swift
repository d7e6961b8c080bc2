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
/// the names' own UTF-8 storage, with a fixed, unseeded hash, so no `Dictionary` is
/// involved. Each name's bytes are stored once (in its `String`; names of up to 15 bytes
/// inline in it): memory is about 16 bytes plus the name's length plus 32 bytes of heap
/// header above 15 bytes, plus 8 bytes of hash and 8 of slots (load at most 1/2), per name.
///
/// Two interners are equal when they hold the same names in the same order.
public struct Interner: Sendable, Hashable, CustomStringConvertible {
  /// The names, indexed by id.
  public private(set) var names: [String] = []
  /// `hashes[i]` is the hash of `names[i]`.
  private var hashes: [UInt64] = []
  /// Slot -> id, or -1 for an empty slot. The count is a power of two.
  private var slots: [Int32] = Array(repeating: -1, count: 16)

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

  /// The id of `bytes`, interning them (as UTF-8 text) when new. Bytes that are not valid
  /// UTF-8 get the id of their repaired text (each invalid sequence replaced by U+FFFD).
  ///
  /// - Complexity: O(`bytes.count`) expected; amortised O(1) table growth.
  @discardableResult
  public mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    let hash = Self.hash(bytes)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let id = slots[slot]
      if id < 0 { break }
      if hashes[Int(id)] == hash && equals(Int(id), bytes) { return id }
      slot = (slot + 1) & mask
    }
    let name = String(decoding: bytes, as: UTF8.self)
    if !Self.same(name.utf8, bytes) {
      // Invalid UTF-8, repaired by `String(decoding:)`: key it by the repaired text, which
      // is what `names` holds and `equals` compares.
      return intern(name)
    }
    return insert(name, hash: hash, slot: slot)
  }

  /// Adds `name`, which must not be interned yet, as the next id, sharing its storage
  /// (no copy of its bytes): for renumbering one interner into another.
  ///
  /// - Precondition: `id(of: name) == nil`, checked in debug builds only.
  /// - Complexity: O(`name.utf8.count`) expected; amortised O(1) table growth.
  @discardableResult
  package mutating func appendNew(_ name: String) -> Int32 {
    assert(id(of: name) == nil, "appendNew: \(name) is already interned")
    var name = name
    let hash = name.withUTF8 { Self.hash($0) }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    return insert(name, hash: hash, slot: slot)
  }

  /// The id of `name`, interning it when new.
  @discardableResult
  public mutating func intern(_ name: String) -> Int32 {
    var name = name
    return name.withUTF8 { intern($0) }
  }

  /// The id of `bytes`, or nil when they were never interned. O(`bytes.count`) expected.
  public func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
    let hash = Self.hash(bytes)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let id = slots[slot]
      if id < 0 { return nil }
      if hashes[Int(id)] == hash && equals(Int(id), bytes) { return id }
      slot = (slot + 1) & mask
    }
  }

  /// The id of `name`, or nil when it was never interned.
  public func id(of name: String) -> Int32? {
    var name = name
    return name.withUTF8 { id(of: $0) }
  }

  /// Whether name `id` is exactly `bytes`. Names hold valid UTF-8 only: invalid bytes are
  /// interned under their repaired text (`String(decoding:)`, U+FFFD for each bad
  /// sequence), so such bytes get the id of that text.
  private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    Self.same(names[id].utf8, bytes)
  }

  /// Whether `name` is exactly the bytes `bytes`. O(`bytes.count`).
  private static func same(_ name: String.UTF8View, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard name.count == bytes.count else { return false }
    guard let other = bytes.baseAddress, bytes.count > 0 else { return true }
    if let same = name.withContiguousStorageIfAvailable({ stored in
      memcmp(stored.baseAddress!, other, bytes.count) == 0
    }) {
      return same
    }
    return name.elementsEqual(bytes)
  }

  /// Stores `name` (hash `hash`) as the next id in the empty `slot`.
  private mutating func insert(_ name: String, hash: UInt64, slot: Int) -> Int32 {
    let id = Int32(truncatingIfNeeded: names.count)
    names.append(name)
    hashes.append(hash)
    slots[slot] = id
    if names.count * 2 > slots.count { grow() }
    return id
  }

  private mutating func grow() {
    let size = slots.count * 2
    var bigger = [Int32](repeating: -1, count: size)
    let mask = size - 1
    for id in 0..<names.count {
      var slot = Int(truncatingIfNeeded: hashes[id]) & mask
      while bigger[slot] >= 0 { slot = (slot + 1) & mask }
      bigger[slot] = Int32(truncatingIfNeeded: id)
    }
    slots = bigger
  }

  /// A fixed 64-bit hash of a byte string: 8 bytes at a time, multiply-rotate, the last
  /// (possibly overlapping) 8 bytes or, for short strings, a few overlapping loads, then
  /// the murmur3 finaliser. Not seeded: ids never depend on it anyway.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = bytes.count
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
    if let base = bytes.baseAddress, count > 0 {
      let raw = UnsafeRawPointer(base)
      var tail: UInt64
      if count >= 8 {
        var i = 0
        while i &+ 8 < count {
          h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
          h = (h &<< 29) | (h &>> 35)
          i &+= 8
        }
        tail = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      } else if count >= 4 {
        let low = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        tail = low | high &<< 32
      } else {
        tail = UInt64(base[0]) | UInt64(base[count &>> 1]) &<< 8 | UInt64(base[count &- 1]) &<< 16
      }
      h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
    }
    h ^= h &>> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h &>> 33
    h = h &* 0xC4CE_B9FE_1A85_EC53
    h ^= h &>> 33
    return h
  }
}
