import SmartStackBase

/// The entries of a tar archive (POSIX ustar, with the pax and GNU extensions for long
/// names and sizes), read from bytes held in memory.
///
/// An archive is a sequence of 512-byte headers, each followed by its data padded to a
/// multiple of 512 bytes, and ends with a zero block (two by the standard; one, or the
/// end of the bytes after a whole entry, is accepted). Each header's checksum is
/// verified. Names come from, in order of precedence: a preceding pax `x` header's
/// `path`, a preceding GNU `L` long-name entry, or the header's `prefix/name`. Sizes are
/// octal or GNU base-256, overridden by a pax `size`. Global pax headers (`g`) are
/// skipped; every other entry, including directories and links, is listed with its
/// type so a caller can choose what to read.
///
/// - Complexity: O(headers + names); data is never copied (entries are byte ranges).
public struct TarArchive: Sendable {
  /// One member of the archive.
  public struct Entry: Sendable, Hashable {
    /// The member's path as stored (`data/lsapp.tsv`).
    public var name: String
    /// The header's type flag: `0` (or NUL) and `7` are regular files, `5` a directory,
    /// `1`/`2` hard and symbolic links.
    public var typeFlag: UInt8
    /// Where the member's data lies in the archive's bytes.
    public var data: Range<Int>
    /// Offset of the member's header.
    public var headerOffset: Int

    /// True for a regular file (type `0`, NUL or `7`).
    public var isRegularFile: Bool {
      typeFlag == UInt8(ascii: "0") || typeFlag == 0 || typeFlag == UInt8(ascii: "7")
    }

    /// The last path component (`lsapp.tsv` for `data/lsapp.tsv`).
    public var baseName: String {
      name.split(separator: "/").last.map(String.init) ?? name
    }
  }

  /// The members, in archive order.
  public let entries: [Entry]

  /// True when `bytes` starts with a tar header: at least 512 bytes, `ustar` at offset
  /// 257 (POSIX `ustar\0` or GNU `ustar `) and a valid header checksum.
  public static func looksLikeTar(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count >= 512 else { return false }
    let magic = Array("ustar".utf8)
    for k in 0..<5 where bytes[257 + k] != magic[k] { return false }
    return checksumMatches(bytes, at: 0)
  }

  /// Lists the entries of the archive in `bytes`.
  ///
  /// - Throws: `ArchiveError` for a bad checksum, an unreadable size, a malformed pax
  ///   record, or an entry that runs past the end of the bytes.
  public init(_ bytes: UnsafeBufferPointer<UInt8>) throws(ArchiveError) {
    var entries: [Entry] = []
    var offset = 0
    var longName: String?
    var paxPath: String?
    var paxSize: Int?
    let n = bytes.count
    while offset < n {
      guard offset + 512 <= n else {
        if bytes[offset...].allSatisfy({ $0 == 0 }) { break }
        throw ArchiveError(
          .truncated, "tar: the header at byte \(offset) is cut short; the archive is truncated")
      }
      if bytes[offset..<(offset + 512)].allSatisfy({ $0 == 0 }) { break }  // end of archive
      guard Self.checksumMatches(bytes, at: offset) else {
        throw ArchiveError(
          .corrupt,
          "tar: bad header checksum in the entry at byte \(offset); the archive is corrupt")
      }
      guard let headerSize = Self.number(bytes, offset + 124, 12) else {
        throw ArchiveError(.corrupt, "tar: unreadable size field in the entry at byte \(offset)")
      }
      let typeFlag = bytes[offset + 156]
      let isMeta = [UInt8(ascii: "L"), UInt8(ascii: "K"), UInt8(ascii: "x"), UInt8(ascii: "g")]
        .contains(typeFlag)
      let size = isMeta ? headerSize : paxSize ?? headerSize
      let dataStart = offset + 512
      guard size <= n - dataStart else {
        throw ArchiveError(
          .truncated,
          "tar: the entry at byte \(offset) needs \(size) bytes of data but the archive ends after \(n - dataStart); the archive is truncated"
        )
      }
      let header = offset
      let data = dataStart..<(dataStart + size)
      let padded = (size + 511) / 512 * 512
      offset = dataStart + min(padded, n - dataStart)
      switch typeFlag {
      case UInt8(ascii: "L"):  // GNU long name for the next entry
        longName = Self.text(bytes, data)
      case UInt8(ascii: "K"):  // GNU long link name: not needed
        break
      case UInt8(ascii: "x"):  // pax extended header for the next entry
        (paxPath, paxSize) = try Self.paxRecords(bytes, data, header: header)
      case UInt8(ascii: "g"):  // pax global header
        break
      default:
        var name = Self.text(bytes, header..<(header + 100))
        // POSIX ustar (`ustar\0`) has a name prefix at 345; GNU (`ustar `) keeps times there.
        if bytes[header + 257 + 5] == 0 {
          let prefix = Self.text(bytes, (header + 345)..<(header + 500))
          if !prefix.isEmpty { name = prefix + "/" + name }
        }
        entries.append(
          Entry(
            name: paxPath ?? longName ?? name, typeFlag: typeFlag, data: data,
            headerOffset: header))
        longName = nil
        paxPath = nil
        paxSize = nil
      }
    }
    self.entries = entries
  }

  /// True when the checksum field of the header at `offset` matches the sum of the
  /// header's bytes with the field itself counted as spaces (unsigned, or signed as some
  /// old tars computed it).
  static func checksumMatches(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
    guard let stored = number(bytes, offset + 148, 8) else { return false }
    var unsigned = 0
    var signed = 0
    for k in 0..<512 {
      let byte = (148..<156).contains(k) ? UInt8(ascii: " ") : bytes[offset + k]
      unsigned += Int(byte)
      signed += Int(Int8(bitPattern: byte))
    }
    return stored == unsigned || stored == signed
  }

  /// A numeric header field: octal digits, optionally surrounded by spaces and ended by
  /// NUL or space; or GNU base-256 (first byte with bit 7 set, big-endian, positive and
  /// below 2^62 only). Nil when unreadable.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
    let first = bytes[start]
    if first & 0x80 != 0 {
      guard first & 0x40 == 0 else { return nil }  // negative
      var value = Int(first & 0x3F)
      for k in 1..<length {
        guard value < 1 << 54 else { return nil }
        value = value << 8 | Int(bytes[start + k])
      }
      return value
    }
    var i = start
    let end = start + length
    while i < end && bytes[i] == UInt8(ascii: " ") { i += 1 }
    var value = 0
    var digits = 0
    while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "7") {
      value = value << 3 | Int(bytes[i] - UInt8(ascii: "0"))
      digits += 1
      i += 1
    }
    while i < end && (bytes[i] == UInt8(ascii: " ") || bytes[i] == 0) { i += 1 }
    guard i == end || digits > 0 else { return nil }
    return i == end ? value : nil
  }

  /// The text of a NUL-terminated (or full-width) field.
  static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    var end = range.lowerBound
    while end < range.upperBound && bytes[end] != 0 { end += 1 }
    return String(
      decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end]), as: UTF8.self)
  }

  /// The `path` and `size` of a pax extended header: records `LENGTH key=value\n`, where
  /// LENGTH counts the whole record in bytes.
  static func paxRecords(_ bytes: UnsafeBufferPointer<UInt8>, _ data: Range<Int>, header: Int)
    throws(ArchiveError) -> (path: String?, size: Int?)
  {
    var path: String?
    var size: Int?
    var i = data.lowerBound
    while i < data.upperBound {
      if bytes[i] == 0 { break }  // padding some writers leave
      var length = 0
      var j = i
      while j < data.upperBound, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9"),
        length < 1 << 40
      {
        length = length * 10 + Int(bytes[j] - UInt8(ascii: "0"))
        j += 1
      }
      let recordEnd = i + length
      guard j > i, j < data.upperBound, bytes[j] == UInt8(ascii: " "), recordEnd <= data.upperBound,
        recordEnd > j + 1, bytes[recordEnd - 1] == UInt8(ascii: "\n")
      else {
        throw ArchiveError(
          .corrupt, "tar: malformed pax extended header in the entry at byte \(header)")
      }
      var equals = j + 1
      while equals < recordEnd - 1 && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
      let key = text(bytes, (j + 1)..<equals)
      let valueRange = min(equals + 1, recordEnd - 1)..<(recordEnd - 1)
      switch key {
      case "path":
        path = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueRange]), as: UTF8.self)
      case "size":
        var value = 0
        var valid = !valueRange.isEmpty
        for k in valueRange {
          let digit = Int(bytes[k]) - 48
          guard (0...9).contains(digit), value < 1 << 58 else {
            valid = false
            break
          }
          value = value * 10 + digit
        }
        guard valid else {
          throw ArchiveError(.corrupt, "tar: unreadable pax size in the entry at byte \(header)")
        }
        size = value
      default:
        break
      }
      i = recordEnd
    }
    return (path, size)
  }
}
