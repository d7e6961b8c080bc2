import Foundation
import SmartStackBase
import SmartStackData

/// An input file's size and content hash, as a manifest lists them: the CRC-32 that gzip
/// and zip use (`CRC32`, computed by zlib), which anyone can check
/// (`python3 -c "import zlib,sys; print('%08x' % zlib.crc32(open(sys.argv[1],'rb').read()))" FILE`).
public struct FileDigest: Sendable, Hashable {
  /// The path the file was read at (as given: relative to the current folder, or absolute).
  public var path: String
  /// The file's size in bytes.
  public var bytes: Int
  /// The CRC-32 of the file's bytes (`CRC32`).
  public var hash: UInt32

  public init(path: String, bytes: Int, hash: UInt32) {
    self.path = path
    self.bytes = bytes
    self.hash = hash
  }

  /// The digest of the file at `path`, read mapped with only about
  /// `MappedInputFile.releaseStep` of it resident at a time (no whole-file array).
  ///
  /// - Throws: `InputFileError` when the file cannot be read.
  /// - Complexity: O(n) in the file's size (zlib's CRC-32: 6.7 GB/s on the project's VM,
  ///   where FNV-1a 64, the hash before, ran at under 1 GB/s).
  public init(path: String) throws {
    let file = try MappedInputFile(path: path)
    let (bytes, hash) = file.withBytes { bytes -> (Int, UInt32) in
      var crc: UInt32 = 0
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + MappedInputFile.releaseStep)
        crc = CRC32.update(crc, UnsafeBufferPointer(rebasing: bytes[start..<end]))
        file.release(before: end)
        start = end
      }
      return (bytes.count, crc)
    }
    self.init(path: path, bytes: bytes, hash: hash)
  }

  /// `hash` as 8 lowercase hex digits (`NumberFormat.hex`).
  public var hexHash: String { NumberFormat.hex(hash) }
}

/// Digests of files computed on a thread of its own while the caller goes on (reads the
/// same files, say), then waited for.
///
/// **Invariants** (why `@unchecked Sendable` holds): `results` is written once, by the one
/// work item `init` starts, before it leaves `group`; it is read only in `wait()`, after
/// `group.wait()`, so the write happens before every read.
final class BackgroundDigests: @unchecked Sendable {
  private let group = DispatchGroup()
  private var results: [Result<FileDigest, any Error>] = []

  /// Starts hashing `paths`, one after the other, on a global queue.
  init(_ paths: [String]) {
    guard !paths.isEmpty else { return }
    group.enter()
    DispatchQueue.global().async { [self] in
      results = paths.map { path in Result { try FileDigest(path: path) } }
      group.leave()
    }
  }

  /// The digests in the order of the paths given to `init`, once all are done.
  func wait() -> [Result<FileDigest, any Error>] {
    group.wait()
    return results
  }
}
