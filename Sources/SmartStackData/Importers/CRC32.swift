import SmartStackBase

internal import CZlib

/// The CRC-32 of ISO 3309 / ITU-T V.42 that gzip (RFC 1952 §8) and zip use: reflected
/// polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
///
/// `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926` (the standard check value).
///
/// Computed by the system zlib (`crc32_z`).
public enum CRC32 {
  /// The CRC-32 of `bytes`.
  ///
  /// - Complexity: O(n).
  public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    update(0, bytes)
  }

  /// The CRC-32 of `bytes`.
  ///
  /// - Complexity: O(n).
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { update(0, $0) }
  }

  /// The CRC-32 of the concatenation of the data that gave `crc` and `bytes`
  /// (`update(0, x)` is the CRC of `x`).
  ///
  /// - Complexity: O(n).
  public static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    // zlib reads `count` bytes from `base` and keeps no pointer.
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    return UInt32(truncatingIfNeeded: crc32_z(uLong(crc), base, z_size_t(bytes.count)))
  }
}
