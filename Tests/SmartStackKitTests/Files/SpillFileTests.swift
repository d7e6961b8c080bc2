import Foundation
import Testing

@testable import SmartStackBase
import SmartStackTestSupport

/// A record with padding after its last field (size 12, stride 16), as `SpilledVisit` has.
private struct PaddedRecord: Equatable {
  var time: Int64
  var tag: Int32
}

/// `SpillFile`: a nameless temporary file of append-only buckets (docs/performance.md,
/// "Streaming replay").
@Suite("Spill file: buckets come back as appended, and the file never has a name")
struct SpillFileTests {
  /// A fresh, empty folder for one test, removed by the caller.
  private func emptyFolder() throws -> String {
    let path = TestFolders.root.path + "/spill-file-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  @Test func everyBucketReadsBackItsRecordsInTheOrderAppended() throws {
    var state: UInt64 = 5
    func next(_ n: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % n
    }
    for round in 0..<20 {
      // Buffers of 64 bytes (four records): many segments, interleaved between buckets.
      let spill = try SpillFile(prefix: "test", bufferBytes: 64)
      let bucketCount = 1 + Int(next(6))
      var expected = [[PaddedRecord]](repeating: [], count: bucketCount)
      for _ in 0..<Int(next(400)) {
        let bucket = Int(next(UInt64(bucketCount)))
        let record = PaddedRecord(time: Int64(next(1 << 40)) - (1 << 39), tag: Int32(next(1000)))
        try spill.append(record, to: bucket)
        expected[bucket].append(record)
      }
      spill.touch(bucketCount - 1)
      try spill.flush()
      #expect(spill.bucketCount == bucketCount)
      #expect(spill.fileBytes == expected.map(\.count).reduce(0, +) * 16)
      for bucket in 0..<bucketCount {
        #expect(try spill.read(bucket, as: PaddedRecord.self) == expected[bucket], "round \(round) bucket \(bucket)")
      }
      // A cleared bucket is empty, the others keep their records, and it can be filled again.
      spill.clear(0)
      #expect(try spill.read(0, as: PaddedRecord.self).isEmpty)
      for bucket in 1..<bucketCount {
        #expect(try spill.read(bucket, as: PaddedRecord.self) == expected[bucket])
      }
      let again = (0..<9).map { PaddedRecord(time: Int64($0), tag: -1) }
      for record in again { try spill.append(record, to: 0) }
      try spill.flush()
      #expect(try spill.read(0, as: PaddedRecord.self) == again)
    }
  }

  @Test func theFileHasNoNameFromTheStartAndLeavesNothingBehind() throws {
    let folder = try emptyFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
      let spill = try SpillFile(prefix: "smartstack-spill", bufferBytes: 64, directory: folder)
      #expect(spill.path.hasPrefix(folder + "/smartstack-spill-"))
      for i in 0..<1000 { try spill.append(Int64(i), to: i % 3) }
      try spill.flush()
      // Segments are written, and the folder is still empty: a process killed now leaves nothing.
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
      #expect(try spill.read(1, as: Int64.self) == Array(stride(from: 1, to: 1000, by: 3)).map(Int64.init))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  @Test func aClearedBucketsSpaceGoesBackToTheFileSystem() throws {
    let spill = try SpillFile(prefix: "test")
    // Four buckets of 1 MiB each, bucket 0 written first (16 whole segments of 64 KiB).
    for bucket in 0..<4 {
      for i in 0..<(1 << 17) { try spill.append(Int64(i), to: bucket) }
    }
    try spill.flush()
    guard spill.punchesHoles, let before = spill.allocatedBytes else {
      // tmpfs, ext4, XFS and Btrfs punch holes; a file system that does not keeps the
      // space until the file is closed (see the type), and there is nothing to check.
      return
    }
    #expect(before >= 4 << 20)
    spill.clear(0)
    spill.clear(2)
    let after = try #require(spill.allocatedBytes)
    #expect(after <= before - (2 << 20), "\(before) -> \(after) bytes")
    #expect(try spill.read(1, as: Int64.self) == (0..<Int64(1 << 17)).map { $0 })
  }

  @Test func aFolderThatCannotHoldTheFileIsNamedInTheError() throws {
    let missing = TestFolders.root.path + "/no-such-folder-" + UUID().uuidString
    #expect {
      _ = try SpillFile(prefix: "smartstack-spill", directory: missing)
    } throws: { error in
      let text = "\(error)"
      return error is OutputFileError && text.hasPrefix(missing + ": cannot write: cannot make a temporary file")
    }
  }
}
