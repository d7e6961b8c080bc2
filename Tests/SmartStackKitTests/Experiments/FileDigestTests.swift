import Foundation
import Testing

@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackExperiments

@Suite("Input file digests: size and the CRC-32 that gzip, zip and zlib compute")
struct FileDigestTests {
  @Test func theCheckValueAndItsHexSpelling() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(NumberFormat.hex(UInt32(0xCBF4_3926)) == "cbf43926")
    #expect(NumberFormat.hex(UInt32(0x0000_00AB)) == "000000ab")
    #expect(NumberFormat.hex(UInt32(0)) == "00000000")
  }

  /// A file longer than the mapped reader's release step, so the digest is updated in
  /// several steps: the same value as one checksum of the whole bytes.
  @Test(arguments: [0, 1, 1000, MappedInputFile.releaseStep + 12_345])
  func aFilesDigestIsTheChecksumOfAllItsBytes(size: Int) throws {
    let folder = try ExperimentFixture.folder()
    var g = SplitMix64(seed: UInt64(size) &+ 7)
    let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    let path = folder + "/input.bin"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let digest = try FileDigest(path: path)
    #expect(digest.bytes == size)
    #expect(digest.hash == CRC32.checksum(bytes))
    #expect(digest.hexHash == NumberFormat.hex(CRC32.checksum(bytes)))
  }

  @Test func aMissingFileIsAnInputError() {
    #expect(throws: InputFileError.self) { try FileDigest(path: "/nonexistent/smartstack/input.csv") }
  }
}
