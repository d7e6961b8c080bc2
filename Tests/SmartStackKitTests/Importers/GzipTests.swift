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

@Suite("Gzip (RFC 1952)")
struct GzipTests {
  private let data = Array("timestamp,user\n2026-03-02T08:00:00Z,alice\n".utf8)

  private var member: [UInt8] {
    ImporterFixtures.gzip(deflate: ImporterFixtures.stored(data), of: data)
  }

  @Test func optionalHeaderFieldsAreSkippedAndTheHeaderCRCIsChecked() throws {
    let extra: [UInt8] =
      [4, 0, 0x41, 0x42, 2, 0] + Array("log.csv".utf8) + [0] + Array("a comment".utf8) + [0]
    var header: [UInt8] = [0x1F, 0x8B, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3] + extra
    let crc16 = UInt16(truncatingIfNeeded: CRC32.checksum(header))
    header += [UInt8(crc16 & 0xFF), UInt8(crc16 >> 8)]
    let file =
      Array(header) + ImporterFixtures.stored(data)
      + ImporterFixtures.littleEndian(CRC32.checksum(data))
      + ImporterFixtures.littleEndian(UInt32(data.count))
    #expect(try Gzip.decompress(file, limit: 1000) == data)

    var badHeaderCRC = file
    badHeaderCRC[header.count - 1] ^= 0xFF
    let error = archiveError { _ = try Gzip.decompress(badHeaderCRC, limit: 1000) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message == "gzip member 1: header CRC mismatch; the file is corrupt")
  }

  @Test func concatenatedMembersAreConcatenatedAndZeroPaddingIsIgnored() throws {
    let second = Array("2026-03-02T09:00:00Z,bob\n".utf8)
    let file = member + ImporterFixtures.gzip(deflate: ImporterFixtures.stored(second), of: second)
    #expect(try Gzip.decompress(file, limit: 1000) == data + second)
    #expect(try Gzip.decompress(file + [0, 0, 0, 0], limit: 1000) == data + second)
    // The system gzip's members too.
    let both = ImporterFixtures.helloGzip + ImporterFixtures.lsappGzip
    #expect(
      try Gzip.decompress(both, limit: 10_000)
        == Array("hello, hello, hello\n".utf8) + Array(ImporterFixtures.lsappText.utf8))
  }

  @Test func otherBytesAfterTheLastMemberAreCorrupt() {
    let error = archiveError { _ = try Gzip.decompress(member + [0x50, 0x4B], limit: 1000) }
    #expect(error?.kind == .corrupt)
    #expect(
      error?.message
        == "unexpected data after gzip member 1 at byte \(member.count) (not another gzip member)")
  }

  @Test func aWrongCRCIsRefusedWithBothValues() {
    var file = ImporterFixtures.lsappGzip
    file[file.count - 8] ^= 0x01
    let error = archiveError { _ = try Gzip.decompress(file, limit: 10_000) }
    let actual = CRC32.checksum(Array(ImporterFixtures.lsappText.utf8))
    #expect(error?.kind == .corrupt)
    #expect(
      error?.message
        == "gzip member 1: CRC-32 mismatch: the trailer says 0x\(NumberFormat.hex(actual ^ 1)), the data has 0x\(NumberFormat.hex(actual)); the file is corrupt"
    )
  }

  @Test func aCorruptedDataByteIsCaught() {
    // Flip a bit in the middle of the dynamic block: inflate or the CRC must notice.
    var file = ImporterFixtures.lsappGzip
    file[file.count / 2] ^= 0x10
    let error = archiveError { _ = try Gzip.decompress(file, limit: 10_000) }
    #expect(error?.kind == .corrupt || error?.kind == .truncated)
    #expect(error?.message.hasPrefix("gzip member 1: ") == true)
  }

  @Test func aWrongSizeIsRefused() {
    var file = member
    file[file.count - 4] &+= 1
    let error = archiveError { _ = try Gzip.decompress(file, limit: 1000) }
    #expect(
      error?.message
        == "gzip member 1: size mismatch: the trailer says \(data.count + 1) bytes (modulo 2^32), the data has \(data.count); the file is corrupt"
    )
  }

  @Test func truncatedFilesAreRefusedAsTruncated() {
    let file = ImporterFixtures.lsappGzip
    let noTrailer = archiveError { _ = try Gzip.decompress(Array(file.dropLast(3)), limit: 10_000) }
    #expect(noTrailer?.kind == .truncated)
    #expect(
      noTrailer?.message
        == "gzip member 1: the 8-byte trailer (CRC-32 and size) is missing; the file is truncated")
    let inData = archiveError { _ = try Gzip.decompress(Array(file.prefix(60)), limit: 10_000) }
    #expect(inData?.kind == .truncated)
    #expect(
      inData?.message
        == "gzip member 1: deflate: the compressed data ends inside a block (truncated)")
    let inHeader = archiveError { _ = try Gzip.decompress(Array(file.prefix(6)), limit: 10_000) }
    #expect(inHeader?.message == "gzip member 1: the header is cut short; the file is truncated")
  }

  @Test func unsupportedMethodsReservedFlagsAndNonGzipDataAreRefused() {
    var method = member
    method[2] = 7
    #expect(
      archiveError { _ = try Gzip.decompress(method, limit: 1000) }?.message
        == "gzip member 1: compression method 7 is not supported (only 8, deflate)")
    var flags = member
    flags[3] = 0x20
    #expect(archiveError { _ = try Gzip.decompress(flags, limit: 1000) }?.kind == .corrupt)
    #expect(
      archiveError { _ = try Gzip.decompress(Array("plain".utf8), limit: 1000) }?.message
        == "not a gzip file (it does not start with the bytes 1f 8b)")
  }

  @Test func aDecompressionBombIsRefusedBeforeItIsAllocated() throws {
    let stream = GzipDeflateTests.bomb(matches: 10_000)  // 2 580 001 zero bytes
    let zeros = [UInt8](repeating: 0, count: 1 + 258 * 10_000)
    let bomb = ImporterFixtures.gzip(deflate: stream, of: zeros)
    #expect(bomb.count < 17_000)
    let error = archiveError { _ = try Gzip.decompress(bomb, limit: 1 << 20) }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message.hasPrefix("the data expands beyond the limit of 1048576 bytes") == true)
    #expect(try Gzip.decompress(bomb, limit: 3 << 20) == zeros)
  }
}

@Suite("Tar archives")
struct TarArchiveTests {
  @Test func readsTheGNUTarFixture() throws {
    let tar = try Gzip.decompress(ImporterFixtures.lsappTarGzip, limit: 1 << 20)
    let archive = try tar.withUnsafeBufferPointer { try TarArchive($0) }
    #expect(archive.entries.map(\.name) == ["lsapp.tsv"])
    let entry = archive.entries[0]
    #expect(entry.isRegularFile)
    #expect(entry.data == 512..<(512 + 456))
    #expect(Array(tar[entry.data]) == Array(ImporterFixtures.lsappText.utf8))
  }

  @Test func readsPaxPathsPrefixesAndFolders() throws {
    let tar = try Gzip.decompress(ImporterFixtures.paxTarGzip, limit: 1 << 20)
    let archive = try tar.withUnsafeBufferPointer { try TarArchive($0) }
    let long =
      "paxdir/a-folder-name-that-is-long-enough-to-need-a-pax-path-record-because-ustar-names-stop-at-one-hundred-bytes"
    #expect(
      archive.entries.map(\.name) == [
        "paxdir/", "paxdir/._lsapp.tsv", "paxdir/README.txt", long + "/", long + "/lsapp.tsv",
      ])
    #expect(archive.entries.map(\.isRegularFile) == [false, true, true, false, true])
    #expect(archive.entries[4].baseName == "lsapp.tsv")
    #expect(String(decoding: tar[archive.entries[2].data], as: UTF8.self) == "not data\n")
  }

  @Test func readsHandMadeUstarPrefixGNULongNamesAndBase256Sizes() throws {
    var w = TarWriter()
    w.add("lsapp.tsv", Array("a\n".utf8), prefix: "data/2018")
    let longName = String(repeating: "n", count: 150) + ".tsv"
    w.add("././@LongLink", Array(longName.utf8) + [0], type: UInt8(ascii: "L"))
    w.add("truncated-name", Array("b\n".utf8))
    w.add("big.tsv", Array("c\n".utf8), base256Size: true)
    w.add("folder/", [], type: UInt8(ascii: "5"))
    w.end()
    let archive = try w.bytes.withUnsafeBufferPointer { try TarArchive($0) }
    #expect(archive.entries.map(\.name) == ["data/2018/lsapp.tsv", longName, "big.tsv", "folder/"])
    #expect(
      archive.entries.map { String(decoding: w.bytes[$0.data], as: UTF8.self) } == [
        "a\n", "b\n", "c\n", "",
      ])
  }

  @Test func paxSizeOverridesTheHeaderSize() throws {
    func record(_ key: String, _ value: String) -> String {
      let body = " \(key)=\(value)\n"
      var length = body.utf8.count + 1
      while String(length).count + body.utf8.count != length { length += 1 }
      return "\(length)\(body)"
    }
    var w = TarWriter()
    w.add(
      "PaxHeaders/x", Array((record("size", "5") + record("path", "renamed.tsv")).utf8),
      type: UInt8(ascii: "x"))
    w.add("x.tsv", Array("12345".utf8), size: 0)
    w.end()
    let archive = try w.bytes.withUnsafeBufferPointer { try TarArchive($0) }
    #expect(archive.entries.map(\.name) == ["renamed.tsv"])
    #expect(archive.entries[0].data.count == 5)

    var bad = TarWriter()
    bad.add("PaxHeaders/x", Array("99 path=x\n".utf8), type: UInt8(ascii: "x"))
    bad.add("x.tsv", [])
    let error = archiveError { _ = try bad.bytes.withUnsafeBufferPointer { try TarArchive($0) } }
    #expect(error?.message == "tar: malformed pax extended header in the entry at byte 0")
  }

  @Test func badChecksumsAndTruncationsAreRefused() {
    var bad = TarWriter()
    bad.add("ok.tsv", [1])
    bad.add("bad.tsv", [2], corruptChecksum: true)
    let checksum = archiveError { _ = try bad.bytes.withUnsafeBufferPointer { try TarArchive($0) } }
    #expect(checksum?.kind == .corrupt)
    #expect(
      checksum?.message
        == "tar: bad header checksum in the entry at byte 1024; the archive is corrupt")

    var short = TarWriter()
    short.add("lsapp.tsv", [UInt8](repeating: 65, count: 1000))
    let cut = Array(short.bytes.prefix(512 + 600))
    let data = archiveError { _ = try cut.withUnsafeBufferPointer { try TarArchive($0) } }
    #expect(data?.kind == .truncated)
    #expect(
      data?.message
        == "tar: the entry at byte 0 needs 1000 bytes of data but the archive ends after 600; the archive is truncated"
    )

    let header = short.bytes + Array(short.bytes.prefix(100))
    let headerError = archiveError { _ = try header.withUnsafeBufferPointer { try TarArchive($0) } }
    #expect(
      headerError?.message == "tar: the header at byte 1536 is cut short; the archive is truncated")
  }

  @Test func recognisesTarOnlyByItsHeader() {
    var w = TarWriter()
    w.add("a.tsv", [1])
    #expect(w.bytes.withUnsafeBufferPointer { TarArchive.looksLikeTar($0) })
    var broken = w.bytes
    broken[0] ^= 1  // checksum no longer matches
    #expect(!broken.withUnsafeBufferPointer { TarArchive.looksLikeTar($0) })
    let text = Array(repeating: Array(ImporterFixtures.lsappText.utf8), count: 3).flatMap { $0 }
    #expect(!text.withUnsafeBufferPointer { TarArchive.looksLikeTar($0) })
  }
}
