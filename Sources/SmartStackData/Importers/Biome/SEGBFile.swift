import SmartStackBase
/// One record of a SEGB file: its state, its time and where its payload lies.
public struct SEGBRecord: Sendable, Hashable {
  /// The record state stored in the file (the `EntryState` of ccl-segb).
  public enum State: Sendable, Hashable {
    /// 1: a record in use.
    case written
    /// 3: a record Biome deleted (its payload may be zeroed or stale).
    case deleted
    /// Any other value (ccl-segb names 4 `Unknown`), as stored.
    case other(Int32)

    init(_ raw: Int32) {
      switch raw {
      case 1: self = .written
      case 3: self = .deleted
      default: self = .other(raw)
      }
    }
  }

  public var state: State
  /// When Biome wrote the record, in seconds since 2001-01-01T00:00:00Z (Cocoa reference
  /// date; add 978 307 200 for Unix time): version 1 the first time of the record header,
  /// version 2 the time of the record's trailer entry. Not checked: may be any double.
  public var time: Double
  /// The byte offset of the record: of its 32-byte header (version 1) or of its 8-byte
  /// entry header (version 2).
  public var offset: Int
  /// The payload's bytes in the file.
  public var data: Range<Int>
  /// The CRC-32 the record header stores for the payload.
  public var storedCRC: UInt32
  /// The CRC-32 (`CRC32`, as zlib's `crc32`) of the payload bytes, `data`, computed on
  /// reading; compared with `storedCRC` only for written records.
  public var computedCRC: UInt32

  /// True when the stored CRC-32 is the payload's.
  public var crcMatches: Bool { storedCRC == computedCRC }
}

/// A SEGB file, the container of Apple's Biome streams (iOS 16+, macOS 13+), read whole.
///
/// Two versions exist. This reader follows the layouts that ccl-segb (CCL Forensics,
/// `ccl_segb1.py`, `ccl_segb2.py`, based on Cellebrite's published research) and iLEAPP
/// read; all integers are little-endian, times are IEEE 754 doubles in seconds since
/// 2001-01-01T00:00:00Z.
///
/// **Version 1** (iOS 16, macOS 13): a 56-byte file header whose first 4 bytes are the
/// byte offset where the records end (`UInt32`) and whose last 4 bytes (offset 52) are the
/// magic `SEGB`. From offset 56 to that end, records, each starting on an 8-byte
/// boundary (offset from the file start): a 32-byte header `<iiddIi`, that is payload
/// length (`Int32`), state (`Int32`), two times (`Double`, the first is `time`), the
/// payload's CRC-32 (`UInt32`) and an unknown `Int32`; then the payload.
///
/// **Version 2** (iOS 17+, macOS 14+): a 32-byte file header `<4sid16s`: the magic `SEGB`
/// at offset 0, the number of records `n` (`Int32`), the file's creation time (`Double`)
/// and 16 unknown bytes. The last `16 * n` bytes of the file are a trailer of one 16-byte
/// entry per record `<iid`: the record's end offset (`Int32`, counted from the end of the
/// file header, i.e. the record ends at byte `32 + endOffset`), state (`Int32`) and time
/// (`Double`). Records follow the file header in the order of their end offsets, each
/// starting on a 4-byte boundary: an 8-byte entry header (payload CRC-32 `UInt32`, an
/// unknown `Int32`), then the payload, up to the end offset.
///
/// **The CRC-32** (the zlib/gzip polynomial) covers the payload only, in both versions:
/// not the record header and not the alignment padding.
///
/// **Failures.** A file shorter than its header, a header or trailer that points past the
/// end of the file, or a record that runs past the end of its data is refused with an
/// `ArchiveError` whose message starts `offset N:` (`.truncated` when the bytes end too
/// early, `.corrupt` when a header contradicts itself). A file of zero bytes has no
/// records. Reading never traps: every read is bounds-checked (`SEGBBytes`), and every
/// count in the file is checked against the file's size before anything is allocated
/// for it, so memory stays within a small multiple of the file's size.
public struct SEGBFile: Sendable {
  public enum Version: Int, Sendable, Hashable {
    case v1 = 1
    case v2 = 2
  }

  /// The version, or nil for an empty (zero-byte) file.
  public let version: Version?
  /// The records, in file order.
  public let records: [SEGBRecord]
  /// The file's bytes; `records[i].data` indexes them.
  public let bytes: [UInt8]

  /// The magic, `SEGB`.
  static let magic: [UInt8] = Array("SEGB".utf8)
  static let v1HeaderSize = 56
  static let v1RecordHeaderSize = 32
  static let v2HeaderSize = 32
  static let v2EntryHeaderSize = 8
  static let v2TrailerEntrySize = 16

  /// Reads a SEGB file's bytes (see the type's documentation for what is refused).
  public init(bytes: [UInt8]) throws(ArchiveError) {
    self.bytes = bytes
    let reader = SEGBBytes(bytes)
    if bytes.isEmpty {
      version = nil
      records = []
    } else if reader.matches(Self.magic, at: 0) {
      version = .v2
      records = try Self.readV2(reader)
    } else if reader.matches(Self.magic, at: Self.v1HeaderSize - 4) {
      version = .v1
      records = try Self.readV1(reader)
    } else if bytes.count < Self.v1HeaderSize {
      throw ArchiveError(
        .truncated,
        "offset 0: the file has \(bytes.count) bytes, fewer than a SEGB header (32 bytes with 'SEGB' at offset 0, or 56 ending in 'SEGB'); it is truncated or not a Biome SEGB file"
      )
    } else {
      throw ArchiveError(
        .corrupt, "offset 0: not a Biome SEGB file (no 'SEGB' at offset 0 or 52)")
    }
  }

  /// The payload of `record`.
  public func payload(_ record: SEGBRecord) -> ArraySlice<UInt8> { bytes[record.data] }

  private static func readV1(_ reader: SEGBBytes) throws(ArchiveError) -> [SEGBRecord] {
    let size = reader.count
    // The magic check above guarantees 56 bytes, so this read cannot fail.
    let end = Int(reader.uint32(at: 0) ?? 0)
    if end > size {
      throw ArchiveError(
        .truncated,
        "offset 0: the header says the records end at byte \(end), but the file has \(size) bytes (truncated)"
      )
    }
    if end < v1HeaderSize {
      throw ArchiveError(
        .corrupt, "offset 0: the header says the records end at byte \(end), inside the 56-byte header")
    }
    var records: [SEGBRecord] = []
    var offset = v1HeaderSize
    while offset < end {
      let dataStart = offset + v1RecordHeaderSize
      guard dataStart <= end, let length = reader.int32(at: offset),
        let state = reader.int32(at: offset + 4), let time = reader.double(at: offset + 8),
        let crc = reader.uint32(at: offset + 24)
      else {
        throw ArchiveError(
          .truncated,
          "offset \(offset): a record header needs 32 bytes, but the records end at byte \(end)")
      }
      if length < 0 {
        throw ArchiveError(.corrupt, "offset \(offset): the record header gives a negative length \(length)")
      }
      let dataEnd = dataStart + Int(length)
      if dataEnd > end {
        throw ArchiveError(
          dataEnd > size ? .truncated : .corrupt,
          "offset \(offset): the record's \(length) bytes of data run to byte \(dataEnd), past the end of the records at byte \(end)"
        )
      }
      records.append(record(reader, state: state, time: time, offset: offset, data: dataStart..<dataEnd, crc: crc))
      offset = (dataEnd + 7) & ~7
    }
    return records
  }

  private static func readV2(_ reader: SEGBBytes) throws(ArchiveError) -> [SEGBRecord] {
    let size = reader.count
    guard let count = reader.int32(at: 4), size >= v2HeaderSize else {
      throw ArchiveError(
        .truncated, "offset 0: the file has \(size) bytes, fewer than the 32-byte SEGB version 2 header")
    }
    if count < 0 {
      throw ArchiveError(.corrupt, "offset 4: the header gives a negative record count \(count)")
    }
    let trailerStart = size - Int(count) * v2TrailerEntrySize
    if trailerStart < v2HeaderSize {
      throw ArchiveError(
        .truncated,
        "offset 4: the header lists \(count) records, whose trailer needs \(Int(count) * v2TrailerEntrySize) bytes after the 32-byte header, but the file has \(size) bytes (truncated)"
      )
    }
    // The trailer entries (end offset, state, time, where the entry is), sorted by end
    // offset and then by position: the order the records lie in.
    var entries: [(end: Int, state: Int32, time: Double, at: Int)] = []
    entries.reserveCapacity(Int(count))
    for i in 0..<Int(count) {
      let at = trailerStart + i * v2TrailerEntrySize
      guard let endOffset = reader.int32(at: at), let state = reader.int32(at: at + 4),
        let time = reader.double(at: at + 8)
      else { break }  // unreachable: the trailer lies inside the file
      entries.append((v2HeaderSize + Int(endOffset), state, time, at))
    }
    entries.sort { $0.end != $1.end ? $0.end < $1.end : $0.at < $1.at }
    var records: [SEGBRecord] = []
    records.reserveCapacity(entries.count)
    var offset = v2HeaderSize
    for entry in entries {
      if entry.end > trailerStart {
        throw ArchiveError(
          entry.end > size ? .truncated : .corrupt,
          "offset \(entry.at): the trailer entry says its record ends at byte \(entry.end), past the start of the trailer at byte \(trailerStart)"
        )
      }
      let dataStart = offset + v2EntryHeaderSize
      guard dataStart <= entry.end, let crc = reader.uint32(at: offset) else {
        throw ArchiveError(
          .corrupt,
          "offset \(entry.at): the trailer entry says its record ends at byte \(entry.end), but the record starts at byte \(offset) and its header alone needs 8 bytes"
        )
      }
      records.append(
        record(reader, state: entry.state, time: entry.time, offset: offset, data: dataStart..<entry.end, crc: crc))
      offset = (entry.end + 3) & ~3
    }
    return records
  }

  private static func record(
    _ reader: SEGBBytes, state: Int32, time: Double, offset: Int, data: Range<Int>, crc: UInt32
  ) -> SEGBRecord {
    SEGBRecord(
      state: SEGBRecord.State(state), time: time, offset: offset, data: data, storedCRC: crc,
      computedCRC: reader.crc32(data))
  }
}
