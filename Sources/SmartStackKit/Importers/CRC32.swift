/// The CRC-32 of ISO 3309 / ITU-T V.42 that gzip (RFC 1952 §8) and zip use: reflected
/// polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
///
/// `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926` (the standard check value).
///
/// Computed eight bytes at a time with eight 256-entry tables ("slicing-by-8").
public enum CRC32 {
  /// The CRC-32 of `bytes`.
  ///
  /// - Complexity: O(n).
  public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    update(0, bytes)
  }

  /// The CRC-32 of `bytes`.
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { update(0, $0) }
  }

  /// The CRC-32 of the concatenation of the data that gave `crc` and `bytes`
  /// (`update(0, x)` is the CRC of `x`).
  ///
  /// - Complexity: O(n).
  public static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    guard let base = bytes.baseAddress else { return crc }
    let n = bytes.count
    var c = ~crc
    var i = 0
    table.withUnsafeBufferPointer { t in
      let raw = UnsafeRawPointer(base)
      while i &+ 8 <= n {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        let low = UInt32(truncatingIfNeeded: word) ^ c
        let high = UInt32(truncatingIfNeeded: word &>> 32)
        c =
          t[7 &* 256 &+ Int(low & 0xFF)] ^ t[6 &* 256 &+ Int((low &>> 8) & 0xFF)]
          ^ t[5 &* 256 &+ Int((low &>> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(low &>> 24)]
          ^ t[3 &* 256 &+ Int(high & 0xFF)] ^ t[2 &* 256 &+ Int((high &>> 8) & 0xFF)]
          ^ t[1 &* 256 &+ Int((high &>> 16) & 0xFF)] ^ t[Int(high &>> 24)]
        i &+= 8
      }
      while i < n {
        c = t[Int((c ^ UInt32(base[i])) & 0xFF)] ^ (c &>> 8)
        i &+= 1
      }
    }
    return ~c
  }

  /// `table[k * 256 + b]`: the CRC register after feeding byte `b` followed by `k` zero
  /// bytes, for k in 0..<8 (table 0 is the classic byte-at-a-time table).
  static let table: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for b in 0..<256 {
      var c = UInt32(b)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      t[b] = c
    }
    for k in 1..<8 {
      for b in 0..<256 {
        let previous = t[(k - 1) * 256 + b]
        t[k * 256 + b] = t[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return t
  }()
}
