import SmartStackBase

/// A gzip decoder (RFC 1952): the headers and trailers here, the DEFLATE data through the
/// system zlib (`ZlibInflater`).
///
/// A gzip file is one or more *members*, each a header, a DEFLATE stream and an 8-byte
/// trailer (CRC-32 and size modulo 2^32 of the member's data, little-endian). The
/// members' data are concatenated, as `gzip -d` does. Header fields are checked and
/// skipped: method 8 (deflate) only, no reserved flag bits, the optional extra field,
/// original name, comment and header CRC-16 (verified when present). Zero bytes after
/// the last member (tape padding) are ignored; any other trailing bytes are an error.
///
/// The headers are read here rather than by zlib's gzip mode so that every error names
/// the member and says what is wrong in full (both CRC values, the header field, the byte
/// offset of trailing data).
///
/// - Complexity: O(n + m) for n compressed and m decompressed bytes; memory: the output
///   (never more than `limit` bytes) plus zlib's state and a 64 KiB chunk.
public enum Gzip {
  /// The two bytes every gzip member starts with.
  public static let magic: (UInt8, UInt8) = (0x1F, 0x8B)

  /// True when `bytes` starts like a gzip member (`1f 8b`).
  public static func isGzip(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.count >= 2 && bytes[0] == magic.0 && bytes[1] == magic.1
  }

  /// True when `bytes` starts like a gzip member (`1f 8b`).
  public static func isGzip(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { isGzip($0) }
  }

  /// The decompressed data of every member of `bytes`, concatenated.
  ///
  /// - Parameter limit: the most bytes the data may expand to; more is refused before it
  ///   is allocated (`.tooLarge`).
  /// - Throws: `ArchiveError` for a bad header, corrupt or truncated data, a CRC-32 or
  ///   size mismatch, trailing bytes, or data beyond `limit`.
  public static func decompress(_ bytes: [UInt8], limit: Int) throws(ArchiveError) -> [UInt8] {
    try bytes.withUnsafeBufferPointer { (input) throws(ArchiveError) -> [UInt8] in
      try decompress(input, limit: limit)
    }
  }

  /// The decompressed data of every member of `input`, concatenated.
  public static func decompress(_ input: UnsafeBufferPointer<UInt8>, limit: Int)
    throws(ArchiveError) -> [UInt8]
  {
    guard isGzip(input) else {
      throw ArchiveError(.corrupt, "not a gzip file (it does not start with the bytes 1f 8b)")
    }
    let inflater = try ZlibInflater()
    var output = LimitedBytes(limit: limit, expected: input.count &* 4)
    var offset = 0
    var member = 1
    while true {
      let dataStart = try skipHeader(input, at: offset, member: member)
      let memberStart = output.bytes.count
      var crc: UInt32 = 0
      let end: Int
      do {
        end = try inflater.inflate(input, from: dataStart) { (piece) throws(ArchiveError) in
          try output.append(piece)
          crc = CRC32.update(crc, piece)
        }
      } catch {
        throw error.kind == .tooLarge
          ? error : ArchiveError(error.kind, "gzip member \(member): \(error.message)")
      }
      guard end + 8 <= input.count else {
        throw ArchiveError(
          .truncated,
          "gzip member \(member): the 8-byte trailer (CRC-32 and size) is missing; the file is truncated"
        )
      }
      let storedCRC = littleEndian32(input, end)
      let storedSize = littleEndian32(input, end + 4)
      let produced = output.bytes.count - memberStart
      guard crc == storedCRC else {
        throw ArchiveError(
          .corrupt,
          "gzip member \(member): CRC-32 mismatch: the trailer says 0x\(NumberFormat.hex(storedCRC)), the data has 0x\(NumberFormat.hex(crc)); the file is corrupt"
        )
      }
      guard storedSize == UInt32(truncatingIfNeeded: produced) else {
        throw ArchiveError(
          .corrupt,
          "gzip member \(member): size mismatch: the trailer says \(storedSize) bytes (modulo 2^32), the data has \(produced); the file is corrupt"
        )
      }
      offset = end + 8
      if offset == input.count { break }
      if isGzip(UnsafeBufferPointer(rebasing: input[offset...])) {
        member += 1
        continue
      }
      if input[offset...].allSatisfy({ $0 == 0 }) { break }
      throw ArchiveError(
        .corrupt,
        "unexpected data after gzip member \(member) at byte \(offset) (not another gzip member)")
    }
    return output.bytes
  }

  /// Checks the member header at `offset` and returns where its DEFLATE data starts.
  static func skipHeader(_ input: UnsafeBufferPointer<UInt8>, at offset: Int, member: Int)
    throws(ArchiveError) -> Int
  {
    func truncated() -> ArchiveError {
      ArchiveError(
        .truncated, "gzip member \(member): the header is cut short; the file is truncated")
    }
    let n = input.count
    guard offset + 10 <= n else { throw truncated() }
    let method = input[offset + 2]
    guard method == 8 else {
      throw ArchiveError(
        .unsupported,
        "gzip member \(member): compression method \(method) is not supported (only 8, deflate)")
    }
    let flags = input[offset + 3]
    guard flags & 0xE0 == 0 else {
      throw ArchiveError(
        .corrupt, "gzip member \(member): reserved header flag bits are set (flags \(flags))")
    }
    var i = offset + 10
    if flags & 0x04 != 0 {  // FEXTRA
      guard i + 2 <= n else { throw truncated() }
      let length = Int(input[i]) | Int(input[i + 1]) << 8
      i += 2 + length
      guard i <= n else { throw truncated() }
    }
    for flag in [UInt8(0x08), 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT
      while i < n && input[i] != 0 { i += 1 }
      guard i < n else { throw truncated() }
      i += 1
    }
    if flags & 0x02 != 0 {  // FHCRC
      guard i + 2 <= n else { throw truncated() }
      let stored = UInt16(input[i]) | UInt16(input[i + 1]) << 8
      let crc = UInt16(
        truncatingIfNeeded: CRC32.checksum(UnsafeBufferPointer(rebasing: input[offset..<i])))
      guard stored == crc else {
        throw ArchiveError(
          .corrupt, "gzip member \(member): header CRC mismatch; the file is corrupt")
      }
      i += 2
    }
    return i
  }

  private static func littleEndian32(_ input: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
    UInt32(input[i]) | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2]) << 16
      | UInt32(input[i + 3]) << 24
  }
}

/// Decompressed bytes that may not grow beyond `limit`: the guard against decompression
/// bombs. The storage never holds, nor reserves room for, more than `limit` bytes.
struct LimitedBytes {
  let limit: Int
  private(set) var bytes: [UInt8] = []

  /// Room for `expected` bytes at first (at least 64, at most `limit`).
  init(limit: Int, expected: Int) {
    self.limit = max(limit, 0)
    bytes.reserveCapacity(min(max(expected, 64), self.limit))
  }

  /// Appends `piece`, growing the storage by doubling but never past `limit`.
  ///
  /// - Throws: `.tooLarge`, appending nothing, when the bytes would exceed `limit`.
  /// - Complexity: amortised O(`piece.count`).
  mutating func append(_ piece: UnsafeBufferPointer<UInt8>) throws(ArchiveError) {
    let needed = bytes.count + piece.count
    guard needed <= limit else {
      throw ArchiveError(
        .tooLarge,
        "the data expands beyond the limit of \(limit) bytes; refusing it as a possible "
          + "decompression bomb (raise the limit with --max-expanded-bytes if the file is genuine)")
    }
    if needed > bytes.capacity {
      bytes.reserveCapacity(max(needed, min(bytes.capacity * 2, limit)))
    }
    bytes.append(contentsOf: piece)
  }
}
