import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("SEGB container")
struct SEGBFileTests {
  typealias R = SEGBWriter.Record

  private let records = [
    R(payload: Array("one".utf8), time: 100.5),
    R(payload: [], state: 3, time: 200),
    R(payload: Array("seventeen bytes!!".utf8), time: 300),
    R(payload: [1, 2], state: 4, time: 400),
  ]

  private func summary(_ file: SEGBFile) -> [String] {
    file.records.map { r in
      "\(r.state) \(r.time) \(String(decoding: file.payload(r), as: UTF8.self).debugDescription) \(r.crcMatches)"
    }
  }

  @Test(arguments: [SEGBFile.Version.v1, .v2])
  func bothVersionsGiveTheRecordsStatesTimesAndPayloadsInFileOrder(version: SEGBFile.Version) throws {
    let bytes = version == .v1 ? SEGBWriter.v1(records) : SEGBWriter.v2(records)
    let file = try SEGBFile(bytes: bytes)
    #expect(file.version == version)
    #expect(
      summary(file) == [
        "written 100.5 \"one\" true", "deleted 200.0 \"\" true",
        "written 300.0 \"seventeen bytes!!\" true", "other(4) 400.0 \"\\u{01}\\u{02}\" true",
      ])
  }

  @Test func version1RecordsStartOn8ByteBoundariesAndVersion2On4() throws {
    let v1 = try SEGBFile(bytes: SEGBWriter.v1(records))
    #expect(v1.records.map(\.offset) == [56, 96, 128, 184])
    #expect(v1.records.allSatisfy { $0.offset % 8 == 0 })
    let v2 = try SEGBFile(bytes: SEGBWriter.v2(records))
    #expect(v2.records.map(\.offset) == [32, 44, 52, 80])
  }

  @Test func version2RecordsAreReadInTheOrderOfTheirEndOffsetsWhateverTheTrailerOrder() throws {
    var bytes = SEGBWriter.v2(Array(records.prefix(2)))
    // Swap the two 16-byte trailer entries.
    let t = bytes.count - 32
    let first = Array(bytes[t..<t + 16])
    bytes.replaceSubrange(t..<t + 16, with: bytes[t + 16..<t + 32])
    bytes.replaceSubrange(t + 16..<t + 32, with: first)
    let file = try SEGBFile(bytes: bytes)
    #expect(file.records.map(\.time) == [100.5, 200])
  }

  @Test(arguments: [SEGBFile.Version.v1, .v2])
  func aWrongStoredCRCIsSeenAndTheCRCCoversThePayloadOnly(version: SEGBFile.Version) throws {
    let bad = [R(payload: Array("abc".utf8), crc: 0xDEAD_BEEF), R(payload: Array("123456789".utf8))]
    let file = try SEGBFile(bytes: version == .v1 ? SEGBWriter.v1(bad) : SEGBWriter.v2(bad))
    #expect(file.records.map(\.crcMatches) == [false, true])
    #expect(file.records[0].storedCRC == 0xDEAD_BEEF)
    #expect(file.records[1].computedCRC == 0xCBF4_3926)  // the standard check value
  }

  @Test func emptyFilesAndFilesWithoutRecordsHoldNoRecords() throws {
    #expect(try SEGBFile(bytes: []).records.isEmpty)
    #expect(try SEGBFile(bytes: []).version == nil)
    #expect(try SEGBFile(bytes: SEGBWriter.v1([])).records.isEmpty)
    #expect(try SEGBFile(bytes: SEGBWriter.v2([])).records.isEmpty)
  }

  private func refusal(_ bytes: [UInt8]) -> ArchiveError? {
    do {
      _ = try SEGBFile(bytes: bytes)
      return nil
    } catch {
      return error
    }
  }

  @Test func truncatedFilesAreRefusedWithTheOffset() throws {
    let v1 = SEGBWriter.v1(records)
    let cut1 = refusal(Array(v1.dropLast(5)))
    #expect(cut1?.kind == .truncated)
    #expect(
      cut1?.message
        == "offset 0: the header says the records end at byte \(v1.count), but the file has \(v1.count - 5) bytes (truncated)"
    )
    // A v2 file cut in its trailer: the trailer then overlaps the records.
    let v2 = SEGBWriter.v2(records)
    let cut2 = refusal(Array(v2.dropLast(20)))
    #expect(cut2 != nil)
    #expect(cut2?.message.hasPrefix("offset ") == true)
    // Shorter than any header.
    #expect(refusal(Array("SEG".utf8))?.kind == .truncated)
    #expect(refusal(Array("SEGB".utf8) + [1, 0, 0, 0])?.kind == .truncated)
  }

  @Test func aRecordRunningPastTheEndOfTheDataIsRefused() throws {
    var v1 = SEGBWriter.v1(records)
    v1.replaceSubrange(56..<60, with: SEGBWriter.le(Int32(10_000)))
    let error = refusal(v1)
    #expect(error?.kind == .truncated)
    #expect(error?.message.hasPrefix("offset 56: the record's 10000 bytes of data run to byte") == true)
    v1.replaceSubrange(56..<60, with: SEGBWriter.le(Int32(-1)))
    #expect(refusal(v1)?.message == "offset 56: the record header gives a negative length -1")
  }

  @Test func version2CountsBeyondTheFileAreRefusedBeforeAnythingIsAllocated() throws {
    var v2 = SEGBWriter.v2(records)
    v2.replaceSubrange(4..<8, with: SEGBWriter.le(Int32.max))
    #expect(refusal(v2)?.kind == .truncated)
    v2.replaceSubrange(4..<8, with: SEGBWriter.le(Int32(-3)))
    #expect(refusal(v2)?.message == "offset 4: the header gives a negative record count -3")
  }

  @Test func aFileWithoutTheMagicIsNotSEGB() throws {
    let error = refusal([UInt8](repeating: 0x41, count: 80))
    #expect(error?.kind == .corrupt)
    #expect(error?.message == "offset 0: not a Biome SEGB file (no 'SEGB' at offset 0 or 52)")
  }

  @Test func everyPrefixOfAValidFileIsReadOrRefusedWithoutTrapping() throws {
    for bytes in [SEGBWriter.v1(records), SEGBWriter.v2(records)] {
      for n in 0...bytes.count {
        _ = try? SEGBFile(bytes: Array(bytes.prefix(n)))
      }
    }
  }
}
